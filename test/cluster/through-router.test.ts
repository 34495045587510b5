import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../receiver.js';
import { SseReader } from '../sse-reader.js';
import { clusterForFile } from './cluster.js';

/** What a client does through a router beyond plain calls: results links, waits, event streams, callbacks. */

const { routers } = clusterForFile();

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../fixtures/tasks/${name}`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A client of one fresh account through a router: its calls with its test key, as JSON. */
function clientOf(base: string) {
  const authorization = `Basic ${Buffer.from(`test_${crypto.randomUUID().slice(0, 12)}:`).toString('base64')}`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, shard: res.headers.get('labelmock-shard'), body: await res.json() };
  };
  return { call, authorization };
}

describe.each(['haproxy', 'nginx'] as const)('through %s', (router) => {
  it('a results link names its shard, and the router takes it there without a key', async () => {
    const base = routers[router];
    const { call } = clientOf(base);
    const body = { ...fixture('lidarannotation.create.json'), callback_url: undefined };
    const created = await call('POST', '/v1/task/lidarannotation', body);
    expect(created.status).toBe(200);
    const completed = await call('POST', `/_mock/tasks/${created.body.task_id}/complete`, {});
    const url = new URL(completed.body.response.annotations.url);
    expect(url.origin).toBe(base);
    expect(url.searchParams.get('shard')).toBe(created.shard);
    // Many times: a router that hashed keyless requests anywhere would miss now and then.
    for (let i = 0; i < 6; i++) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('labelmock-shard')).toBe(created.shard);
      expect(Array.isArray(await res.json())).toBe(true);
    }
  });

  it('/_mock/wait, the event stream and callbacks work through it', async () => {
    const base = routers[router];
    const { call, authorization } = clientOf(base);
    const receiver = await startReceiver();
    try {
      const created = await call('POST', '/v1/task/categorization', {
        ...fixture('categorization.create.json'),
        callback_url: receiver.url,
      });
      const id = created.body.task_id as string;
      // The stream first: once its headers are here the tenant's events are kept, so the waits (since=0) see
      // the completion whether it comes before or after they reach the shard.
      const stream = await fetch(`${base}/_mock/events`, { headers: { authorization } });
      expect(stream.headers.get('content-type')).toContain('text/event-stream');
      const events = new SseReader(stream.body);
      const waiting = call('GET', `/_mock/wait?event=task.completed&task_id=${id}&since=0&timeout_ms=60000`);
      const attempted = call('GET', `/_mock/wait?event=callback.attempt&task_id=${id}&since=0&timeout_ms=60000`);
      await call('POST', `/_mock/tasks/${id}/complete`, {});
      expect((await waiting).status).toBe(200);
      expect((await attempted).status).toBe(200);
      let event = await events.nextEvent();
      while (event.event !== 'task.completed') event = await events.nextEvent();
      expect(event.data).toMatchObject({ task_id: id });
      await events.cancel();
      expect(receiver.received.map((request) => request.body)).toMatchObject([{ task_id: id }]);
    } finally {
      await receiver.close();
    }
  });
});
