import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createImageTask, KEY, makeApp } from './helpers.js';

/**
 * GET /metrics: the Prometheus text format, read by the Prometheus project's own Python client parser (Debian's
 * python3-prometheus-client), so what passes here is what a Prometheus server scrapes.
 */

const run = promisify(execFile);
/** The distribution's Python, which its python3-prometheus-client package installs into (not a pyenv's). */
const DEBIAN_PYTHON = '/usr/bin/python3';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number | string;
}

const PARSE = `
import json, math, sys
from prometheus_client.parser import text_string_to_metric_families
families = list(text_string_to_metric_families(sys.stdin.read()))
value = lambda v: v if math.isfinite(v) else str(v)  # NaN (an event loop not yet measured) is no JSON number
print(json.dumps({f.name: {"type": f.type, "samples": [{"name": s.name, "labels": s.labels, "value": value(s.value)}
                                                       for s in f.samples]} for f in families}))
`;

/** The exposition text as the Prometheus client's parser reads it: families by name, with their samples. */
async function parse(text: string): Promise<Record<string, { type: string; samples: Sample[] }>> {
  const child = run(DEBIAN_PYTHON, ['-c', PARSE], { maxBuffer: 16 * 1024 * 1024 });
  child.child.stdin?.end(text);
  return JSON.parse((await child).stdout);
}

const sampleOf = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

describe('GET /metrics', () => {
  it('answers without a key in the Prometheus format, labelled by shard and route, naming no account', async () => {
    const t = makeApp({ config: { shardId: 'shard-7' } });
    const account = 'test_secretaccount42';
    for (let i = 0; i < 3; i++) expect((await t.call('GET', '/v1/tasks', { key: account })).status).toBe(200);
    await createImageTask(t, {}, account);
    expect((await t.call('GET', '/v1/task/nope', { key: account })).status).toBe(404);
    expect((await t.call('GET', '/v1/tasks', { key: null })).status).toBe(401);
    expect((await t.call('GET', '/v1/nothing-here', { key: account })).status).toBe(404);

    const res = await t.app.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).not.toContain('secretaccount42');
    const families = await parse(text);

    const requests = families.labelmock_http_requests?.samples ?? [];
    expect(families.labelmock_http_requests?.type).toBe('counter');
    const listed = { method: 'GET', route: '/v1/tasks', shard: 'shard-7' };
    expect(sampleOf(requests, 'labelmock_http_requests_total', { ...listed, status: '200' })?.value).toBe(3);
    expect(sampleOf(requests, 'labelmock_http_requests_total', { ...listed, status: '401' })?.value).toBe(1);
    const read = { method: 'GET', route: '/v1/task/{taskId}', status: '404' };
    expect(sampleOf(requests, 'labelmock_http_requests_total', read)?.value).toBe(1);
    expect(sampleOf(requests, 'labelmock_http_requests_total', { route: 'unmatched' })?.value).toBe(1);
    const creation = { method: 'POST', route: '/v1/task/imageannotation', status: '200' };
    const durations = families.labelmock_http_request_duration_seconds;
    expect(durations?.type).toBe('histogram');
    const count = sampleOf(durations?.samples ?? [], 'labelmock_http_request_duration_seconds_count', creation);
    expect(count?.value).toBe(1);
    // Every series carries the shard; none carries anything naming a tenant.
    const labelNames = new Set(
      Object.values(families).flatMap((f) => f.samples.flatMap((sample) => Object.keys(sample.labels))),
    );
    // Ours, the histogram's `le`, and those of the process metrics (heap spaces, GC kinds, Node's version).
    const allowed = ['method', 'route', 'status', 'shard', 'le', 'outcome', 'space', 'kind', 'type', 'version'];
    expect([...labelNames].filter((name) => !allowed.includes(name) && !/^(major|minor|patch)$/.test(name))).toEqual(
      [],
    );
    expect(Object.values(families).every((f) => f.samples.every((sample) => sample.labels.shard === 'shard-7'))).toBe(
      true,
    );
    for (const gauge of [
      'labelmock_tenants',
      'labelmock_accounts',
      'labelmock_held_requests',
      'labelmock_upload_bytes',
    ]) {
      expect(families[gauge]?.type, gauge).toBe('gauge');
    }
    // The imageannotation task's account holds one tenant (its test mode); reads of empty tenants leave none.
    expect(families.labelmock_tenants?.samples[0]?.value).toBe(1);
    expect(families.labelmock_request_journal_bytes?.samples[0]?.value).toBeGreaterThan(0);
    // The process's own: memory, CPU, the event loop.
    expect(families.labelmock_process_resident_memory_bytes?.type).toBe('gauge');
    t.app.dispose();
  });

  it('counts held requests, event streams and callback attempts by outcome', async () => {
    let answer = 500;
    const t = makeApp({
      fetch: async () => new Response('', { status: answer }),
      config: { shardId: 'shard-7' },
    });
    await t.call('PATCH', '/_mock/settings', { body: { callbacks: { max_attempts: 2, retry_scale: 0.001 } } });
    const task = await createImageTask(t, { callback_url: 'http://127.0.0.1:9/hook' });
    const stream = await t.app.request('/_mock/events', { headers: { authorization: `Basic ${btoa(`${KEY}:`)}` } });
    const gauges = async () => {
      const families = await parse(await (await t.app.request('/metrics')).text());
      const value = (name: string) => families[name]?.samples[0]?.value;
      const attempts = families.labelmock_callback_attempts?.samples ?? [];
      const byOutcome = (outcome: string) =>
        sampleOf(attempts, 'labelmock_callback_attempts_total', { outcome })?.value ?? 0;
      return {
        held: value('labelmock_held_requests'),
        streams: value('labelmock_event_subscribers'),
        pending: byOutcome('pending'),
        succeeded: byOutcome('succeeded'),
      };
    };
    expect(await gauges()).toMatchObject({ held: 1, streams: 1, pending: 0 });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: {} });
    await t.call('GET', `/_mock/wait?event=callback.attempt&task_id=${task.task_id}&since=0`);
    answer = 200;
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 3_600_000 } });
    await t.call('GET', `/_mock/wait?event=callback.attempt&task_id=${task.task_id}&since=1`);
    await stream.body?.cancel();
    expect(await gauges()).toMatchObject({ pending: 1, succeeded: 1 });
    t.app.dispose();
  });
});
