import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SLICE } from '../src/runtime/slices.js';
import { exportState } from '../src/services/tenant-state.js';
import { formOf, project, upload } from './file-helpers.js';
import { basic, createImageTask, KEY, makeApp, present, type TestApp } from './helpers.js';

/** Reads an answer piece by piece, noting for each piece whether a macrotask queued after the first had run by then. */
async function readPieces(t: TestApp, key = KEY) {
  const res = await t.app.request('/_mock/state', { headers: { authorization: basic(key) } });
  const body = res.body;
  if (!body) throw new Error('no body to read');
  const reader = body.getReader();
  const pieces: { bytes: Uint8Array; afterTurn: boolean }[] = [];
  let turned = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (pieces.length === 0) setImmediate(() => (turned = true));
    pieces.push({ bytes: value, afterTurn: turned });
  }
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    pieces,
    text: Buffer.concat(pieces.map((p) => p.bytes)).toString('utf8'),
  };
}

const tenantOf = (t: TestApp) => t.app.services.store.tenant('acme', 'test');

describe('GET /_mock/state streaming', () => {
  it('GET /_mock/state writes a large file in slices between event loop turns, the same bytes as a whole', async () => {
    const t = makeApp();
    await project(t, 'scans');
    const bytes = randomBytes(2 * 1024 * 1024 + 1);
    expect((await upload(t, formOf({ project_name: 'scans' }, { filename: 'big.bin', content: bytes }))).status).toBe(
      200,
    );
    expect((await upload(t, formOf({}, { filename: 'empty.txt', content: '' }))).status).toBe(200);
    expect((await t.call('POST', '/v1/files/import', { body: { file_url: 'https://example.com/a.png' } })).status).toBe(
      200,
    );
    const task = await createImageTask(t, { metadata: { note: 'é ✓ "quoted"' } });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const res = await readPieces(t);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json');
    expect(res.text).toBe(JSON.stringify(exportState(tenantOf(t))));
    expect(res.pieces.length).toBeGreaterThan(2);
    expect(res.pieces.some((p) => p.afterTurn)).toBe(true);
    const state = JSON.parse(res.text);
    expect(state.files.map((f: { content_base64: string | null }) => f.content_base64?.length ?? null)).toEqual([
      bytes.toString('base64').length,
      0,
      null,
    ]);
    expect(Buffer.from(state.files[0].content_base64, 'base64').equals(bytes)).toBe(true);
  });

  it('GET /_mock/state with thousands of tasks answers in pieces with turns of the event loop in between', async () => {
    const t = makeApp();
    await createImageTask(t);
    const seed = (await t.call('GET', '/_mock/state')).body;
    const tasks = Array.from({ length: 3000 }, (_, i) => ({
      task: {
        ...seed.tasks[0].task,
        task_id: `${String(i).padStart(24, '0')}`,
        metadata: { filler: 'x'.repeat(600), n: i },
      },
    }));
    const put = await t.call('PUT', '/_mock/state', { body: { ...seed, tasks } });
    expect(put.status).toBe(200);
    expect(put.body.tasks).toHaveLength(3000);
    const res = await readPieces(t);
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(exportState(tenantOf(t))));
    expect(res.pieces.length).toBeGreaterThan(1);
    expect(res.pieces.some((p) => p.afterTurn)).toBe(true);
    expect(
      JSON.parse(res.text).tasks.map((entry: { task: { metadata: { n: number } } }) => entry.task.metadata.n),
    ).toEqual([...Array(3000).keys()]);
  });
});

describe('GET /_mock/state streams the v2 catalog', () => {
  it('a catalog of datasets is written in pieces between turns, before the tasks, the same bytes', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'chat', name: 'chats' } });
    const task = (await t.call('POST', '/v2/task/chat', { body: { project_name: 'chats' } })).body;
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    expect((await t.call('POST', '/_mock/v2/deliveries', { body: { name: 'd', project: 'chats' } })).status).toBe(200);
    const schema = { json: { type: 'object' }, name: 'verdicts' };
    expect((await t.call('POST', '/_mock/v2/schemas', { body: schema })).status).toBe(200);
    // Three datasets of two deliveries of 1,000 tasks with 500-character answers: about 3 MB, no task among them.
    const delivery = (name: string) => ({
      name,
      tasks: Array.from({ length: 1000 }, () => ({ response: { text: 'x'.repeat(500) } })),
    });
    for (const name of ['a', 'b', 'c']) {
      const made = await t.call('POST', '/_mock/v2/datasets', {
        body: { name, deliveries: [delivery('1'), delivery('2')] },
      });
      expect(made.status).toBe(200);
    }
    const res = await readPieces(t);
    expect(res.text).toBe(JSON.stringify(exportState(tenantOf(t))));
    // The catalog alone comes in several pieces, with turns of the event loop between them.
    const tasksAt = res.text.lastIndexOf('"tasks":[');
    let written = 0;
    const catalogPieces = res.pieces.filter((piece) => {
      const before = written;
      written += piece.bytes.byteLength;
      return before < tasksAt;
    });
    expect(catalogPieces.length).toBeGreaterThan(2);
    expect(catalogPieces.some((p) => p.afterTurn)).toBe(true);
    expect(JSON.parse(res.text).v2.datasets.map((d: { name: string }) => d.name)).toEqual(['a', 'b', 'c']);
  });
});

describe('PUT /_mock/state checked in slices', () => {
  it('PUT /_mock/state names a bad task past the first slice by its place in the list, keeping the state', async () => {
    const t = makeApp();
    const kept = await createImageTask(t);
    const seed = (await t.call('GET', '/_mock/state')).body;
    const tasks = Array.from({ length: 600 }, (_, i) => ({
      task: { ...seed.tasks[0].task, task_id: i.toString(16).padStart(24, '0') },
    }));
    tasks[520] = { task: { ...present(tasks[520], 'task 520').task, status: 'finished' } };
    const res = await t.call('PUT', '/_mock/state', { body: { ...seed, tasks } });
    expect(res.status).toBe(400);
    expect(res.body.status_code).toBe(400);
    expect(res.body.error).toMatch(/^Parameter is invalid, reason: "tasks\[520\]\.task\.status" must be one of /);
    expect(
      (await t.call('GET', '/_mock/state')).body.tasks.map(
        (entry: { task: { task_id: string } }) => entry.task.task_id,
      ),
    ).toEqual([kept.task_id]);
  });

  it('PUT /_mock/state checks training attempts in slices too, naming a bad one by its place in the list', async () => {
    const t = makeApp();
    const seed = (await t.call('GET', '/_mock/state')).body;
    const attempts = Array.from({ length: 700 }, (_, i) => ({
      quality_task_id: `q${i}`,
      labeler_email: 'l@example.com',
      created_at: '2026-01-01T00:00:00.000Z',
    }));
    const attempt = present(attempts[640], 'attempt 640');
    attempts[640] = { ...attempt, labeler_email: 'nobody' };
    const res = await t.call('PUT', '/_mock/state', { body: { ...seed, training_attempts: attempts } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^Parameter is invalid, reason: "training_attempts\[640\]\.labeler_email" /);
    attempts[640] = { ...attempt, labeler_email: 'l@example.com' };
    const ok = await t.call('PUT', '/_mock/state', { body: { ...seed, training_attempts: attempts } });
    expect(ok.status).toBe(200);
    expect(ok.body.training_attempts).toHaveLength(700);
  });

  it("PUT /_mock/state checks a dataset's tasks in slices, between turns, naming a bad one by its place", async () => {
    const t = makeApp();
    const seed = (await t.call('GET', '/_mock/state')).body;
    const tasks = Array.from({ length: 600 }, (_, i) => ({ task_id: `dt${i}`, response: { n: i } }));
    const delivery = (id: string, list: unknown[]) => ({
      id,
      name: id,
      delivered_at: '2026-01-01T00:00:00.000Z',
      tasks: list,
    });
    const v2 = (list: unknown[]) => ({
      deliveries: [],
      schemas: [],
      datasets: [{ id: 'ds', name: 'set', deliveries: [delivery('e0', []), delivery('e1', list)] }],
    });
    const bad = [...tasks];
    bad[520] = { task_id: 'dt520', response: 'not an object' } as never;
    const refused = await t.call('PUT', '/_mock/state', { body: { ...seed, v2: v2(bad) } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(
      /^Parameter is invalid, reason: "v2\.datasets\[0\]\.deliveries\[1\]\.tasks\[520\]\.response" /,
    );
    // Turns of the event loop come between the slices (600 tasks: three of 250): count those the import lets by.
    let turns = 0;
    let importing = true;
    const count = () => {
      turns += 1;
      if (importing) setImmediate(count);
    };
    setImmediate(count);
    const ok = await t.call('PUT', '/_mock/state', { body: { ...seed, v2: v2(tasks) } });
    importing = false;
    expect(ok.status).toBe(200);
    expect(turns).toBeGreaterThanOrEqual(3);
    expect((await t.call('GET', '/v2/datasets/task?task_id=dt599')).body.response).toEqual({ n: 599 });
  });
});

describe('PUT /_mock/state checks a large v2 catalog in slices', () => {
  it('45,000 dataset deliveries are checked with turns of the event loop in between, and all are loaded', async () => {
    const t = makeApp();
    const seed = (await t.call('GET', '/_mock/state')).body;
    const hex = (n: number) => n.toString(16).padStart(24, '0');
    const deliveries = Array.from({ length: 45_000 }, (_, i) => ({
      id: hex(i + 1),
      name: `d${i}`,
      delivered_at: '2024-01-01T00:00:00.000Z',
      tasks: [],
    }));
    const v2 = { deliveries: [], schemas: [], datasets: [{ id: hex(999_999), name: 'ds', deliveries }] };
    // Turns of the event loop until the route answers (its body streams after): the import's checks run here.
    let turns = 0;
    let answered = false;
    const count = () => {
      turns += 1;
      if (!answered) setImmediate(count);
    };
    setImmediate(count);
    const init = { method: 'PUT', headers: { authorization: basic(KEY), 'content-type': 'application/json' } };
    const res = await t.app.request('/_mock/state', { ...init, body: JSON.stringify({ ...seed, v2 }) });
    answered = true;
    expect(res.status).toBe(200);
    expect(turns).toBeGreaterThan(45_000 / SLICE / 2);
    const loaded = JSON.parse(await res.text());
    expect(loaded.v2.datasets[0].deliveries).toHaveLength(45_000);
  });
});
