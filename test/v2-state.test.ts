import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { frameLine } from '../src/persist/frames.js';
import { ManualClock } from '../src/runtime/clock.js';
import { randomIds } from '../src/runtime/ids.js';
import { makeApp, type TestApp } from './helpers.js';

/**
 * What v2 keeps beyond v1's objects survives a restart (--data-dir) and a state export and import:
 * ids, a paused or cancelled batch, completions deferred while paused, given threads (and their
 * annotations by id), deliveries, schemas and datasets.
 */

const dirs: string[] = [];
const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function open(dir: string, clock = new ManualClock()) {
  const t = makeApp({ clock, ids: randomIds, config: { dataDir: dir }, persistence: { warn: () => {} } });
  apps.push(t);
  return t;
}

const THREADS = [
  {
    id: 'thread-1',
    turns: [
      {
        id: 'turn-1',
        messages: [{ role: 'user', content: { text: 'Hi' }, source_id: 'u', annotations: [] }],
        annotations: [{ id: 'given-annotation', key: 'tone', type: 'category', value: 'friendly' }],
      },
    ],
    annotations: [],
  },
];

/** A chat project, a paused batch with a deferred completion, a task completed with given threads, a delivery. */
async function build(t: TestApp) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await t.call(method, path, { body });
    expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(200);
    return res.body;
  };
  await ok('POST', '/v1/projects', { type: 'chat', name: 'chats' });
  const done = await ok('POST', '/v2/task/chat', { project_name: 'chats', template_variables: { prompt: 'a' } });
  await ok('POST', `/_mock/tasks/${done.task_id}/complete`, { threads: THREADS });
  const schema = await ok('POST', '/_mock/v2/schemas', { id: '5c84d0fe958593004f13e5aa', json: { type: 'object' } });
  await ok('POST', '/_mock/v2/deliveries', { name: 'week-1', project: 'chats', response_schema_id: schema.schema.id });
  const paused = await ok('POST', '/v2/batch', { name: 'paused', project_name: 'chats' });
  await ok('PATCH', '/_mock/settings', { completion: { mode: 'delay', delay_ms: 1000 } });
  const waiting = await ok('POST', '/v2/task/chat', { batch_id: paused.id });
  await ok('POST', '/v2/batch/pause', { batch_id: paused.id });
  await ok('POST', '/_mock/clock/advance', { ms: 2000 });
  const cancelled = await ok('POST', '/v2/batch', { name: 'cancelled', project_name: 'chats' });
  await ok('POST', '/v2/batch/cancel', { batch_id: cancelled.id });
  await ok('POST', '/_mock/v2/datasets', {
    name: 'set',
    deliveries: [{ name: 'd', tasks: [{ task_id: 'dt', response: {} }] }],
  });
  return { done: done.task_id as string, waiting: waiting.task_id as string, paused: paused.id as string };
}

/** Everything v2 answers about that world, for a before/after comparison. */
async function readBack(t: TestApp, ids: Awaited<ReturnType<typeof build>>) {
  const paths = [
    '/v2/projects',
    '/v2/batches?project_name=chats',
    `/v2/task?task_id=${ids.done}&opts=annotation_details`,
    `/v2/task?task_id=${ids.waiting}`,
    '/v2/annotation?annotation_id=given-annotation',
    '/v2/deliveries?project_name=chats',
    '/v2/schema?schema_id=5c84d0fe958593004f13e5aa',
    '/v2/datasets/task?task_id=dt&expand=dataset',
  ];
  const answers: unknown[] = [];
  for (const path of paths) {
    const res = await t.call('GET', path);
    expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
    answers.push(res.body);
  }
  return answers;
}

describe('v2 state', () => {
  it('--data-dir: a restart answers every v2 read as before; the deferred completion runs on resume', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-v2-'));
    dirs.push(dir);
    const first = open(dir);
    const ids = await build(first);
    const before = await readBack(first, ids);
    expect((before[3] as { status: string }).status).toBe('pending');
    first.app.dispose();
    apps.splice(apps.indexOf(first), 1);
    const second = open(dir, first.clock);
    expect(await readBack(second, ids)).toEqual(before);
    expect((await second.call('POST', '/v2/batch/resume', { body: { batch_id: ids.paused } })).status).toBe(200);
    expect((await second.call('GET', `/v2/task?task_id=${ids.waiting}`)).body.status).toBe('completed');
  });

  it('--data-dir journals each catalog record once: a later write carries none of the catalog', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-v2-'));
    dirs.push(dir);
    const t = open(dir);
    const tasks = Array.from({ length: 200 }, () => ({ response: { text: 'x'.repeat(200) } }));
    for (const name of ['one', 'two']) {
      expect(
        (await t.call('POST', '/_mock/v2/datasets', { body: { name, deliveries: [{ name, tasks }] } })).status,
      ).toBe(200);
    }
    expect((await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'after' } })).status).toBe(200);
    const journal = readdirSync(dir).find((name) => name.startsWith('journal-'));
    const lines = readFileSync(join(dir, journal ?? ''), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line.slice(9)));
    // One line per request: the first dataset, the second (only itself), then the project (no catalog at all).
    expect(lines.map((line) => line.v2?.datasets?.map((d: { name: string }) => d.name) ?? null)).toEqual([
      ['one'],
      ['two'],
      null,
    ]);
    expect(lines.every((line) => line.meta?.v2 === undefined)).toBe(true);
    t.app.dispose();
    apps.splice(apps.indexOf(t), 1);
    const again = open(dir, t.clock);
    expect((await again.call('GET', '/v2/datasets')).body.datasets.map((d: { name: string }) => d.name)).toEqual([
      'two',
      'one',
    ]);
  });

  it('--data-dir reads a journal written before the catalog had lines of its own (whole, in meta.v2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-v2-'));
    dirs.push(dir);
    const first = open(dir);
    expect((await first.call('POST', '/v1/projects', { body: { type: 'chat', name: 'old' } })).status).toBe(200);
    const meta = (await first.call('GET', '/_mock/state')).body;
    first.app.dispose();
    apps.splice(apps.indexOf(first), 1);
    const { format: _f, tasks: _t, files: _fi, callbacks: _c, scheduled_jobs: _j, ...kept } = meta;
    const schema = { id: '5c84d0fe958593004f13e5ab', json: '{"type":"object"}', name: 'old schema' };
    const oldLine = { t: 'test:acme', meta: { ...kept, v2: { deliveries: [], schemas: [schema], datasets: [] } } };
    writeFileSync(join(dir, 'journal-999.ndjson'), frameLine(JSON.stringify(oldLine)));
    const second = open(dir, first.clock);
    const read = await second.call('GET', `/v2/schema?schema_id=${schema.id}`);
    expect(read.status).toBe(200);
    expect(read.body.schema.name).toBe('old schema');
  });

  it('GET /_mock/state, a reset, then PUT /_mock/state brings the v2 state back whole', async () => {
    const t = makeApp();
    const ids = await build(t);
    const before = await readBack(t, ids);
    const state = await t.call('GET', '/_mock/state');
    expect(state.body.batches.map((b: { hold?: string }) => b.hold ?? null)).toEqual(['paused', 'cancelled']);
    expect(state.body.v2.deliveries).toHaveLength(1);
    expect((await t.call('POST', '/_mock/reset')).status).toBe(200);
    expect((await t.call('GET', `/v2/task?task_id=${ids.done}`)).status).toBe(404);
    expect((await t.call('PUT', '/_mock/state', { body: state.body })).status).toBe(200);
    expect(await readBack(t, ids)).toEqual(before);
  });
});
