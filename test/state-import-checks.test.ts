import { describe, expect, it } from 'vitest';
import { readContent, uploadText } from './file-helpers.js';
import { createImageTask, makeApp, type TestApp } from './helpers.js';

/** PUT /_mock/state refuses what would cross modes or break a later request, naming the record and field. */

const LIVE = 'live_acme';

/** A test-mode export holding one task in a batch of a project. */
async function exportWithBatch(t: TestApp) {
  await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
  await t.call('POST', '/v1/batches', { body: { project: 'p', name: 'b' } });
  await createImageTask(t, { project: 'p', batch: 'b' });
  return (await t.call('GET', '/_mock/state')).body;
}

async function refused(t: TestApp, state: unknown, key?: string) {
  const res = await t.call('PUT', '/_mock/state', { body: state, ...(key && { key }) });
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  return res.body.error as string;
}

describe('PUT /_mock/state: one timestamp rule for every list', () => {
  it.each([
    ['tasks[0].task.created_at', (state: any) => (state.tasks[0].task.created_at = ' 1 ')],
    ['batches[0].created_at', (state: any) => (state.batches[0].created_at = ' 1 ')],
    ['tasks[0].task.updated_at', (state: any) => (state.tasks[0].task.updated_at = '2026-01-01')],
    [
      'training_attempts[0].created_at',
      (state: any) =>
        (state.training_attempts = [{ quality_task_id: 'q', labeler_email: 'a@example.com', created_at: ' 1 ' }]),
    ],
  ])('refuses a timestamp Date.parse would take but RFC 3339 does not, at %s, in the same words', async (at, spoil) => {
    const t = makeApp();
    const state = await exportWithBatch(t);
    spoil(state);
    expect(await refused(t, state)).toMatch(
      new RegExp(`"${at.replace(/[[\].]/g, '\\$&')}" must be an ISO 8601 timestamp, e\\.g\\. 2026`),
    );
  });
});

describe('PUT /_mock/state references and values', () => {
  it('PUT /_mock/state refuses a task naming a live batch; a test task never moves a live batch', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { key: LIVE, body: { type: 'imageannotation', name: 'live-p' } });
    await t.call('POST', '/v1/batches', { key: LIVE, body: { project: 'live-p', name: 'live-b' } });
    await createImageTask(t, { project: 'live-p', batch: 'live-b' }, LIVE);
    await t.call('POST', '/v1/batches/live-b/finalize', { key: LIVE });
    const state = (await t.call('GET', '/_mock/state')).body;
    const task = (await createImageTask(t, {}, 'test_other')) as Record<string, unknown>;
    const foreign = { ...state, tasks: [{ task: { ...task, project: 'live-p', batch: 'live-b' } }] };
    expect(await refused(t, foreign)).toMatch(
      /"tasks\[0\]\.task\.project" names "live-p", which is not among the imported/,
    );
    const onlyBatch = { ...state, tasks: [{ task: { ...task, batch: 'live-b' } }] };
    expect(await refused(t, onlyBatch)).toMatch(/"tasks\[0\]\.task\.batch" names "live-b"/);
    expect((await t.call('GET', '/v1/batches/live-b', { key: LIVE })).body.status).toBe('in_progress');
  });

  it('PUT /_mock/state refuses dates that do not parse, naming the field', async () => {
    const t = makeApp();
    const state = await exportWithBatch(t);
    const [entry] = state.tasks;
    const badTask = { ...state, tasks: [{ ...entry, task: { ...entry.task, updated_at: 'yesterday' } }] };
    expect(await refused(t, badTask)).toMatch(/"tasks\[0\]\.task\.updated_at" must be an ISO 8601 timestamp/);
    const badBatch = { ...state, batches: [{ ...state.batches[0], created_at: 'soon' }] };
    expect(await refused(t, badBatch)).toMatch(/"batches\[0\]\.created_at" must be an ISO 8601 timestamp/);
  });

  it('PUT /_mock/state refuses a type the server does not know and params that do not fit the type', async () => {
    const t = makeApp();
    const state = await exportWithBatch(t);
    const [entry] = state.tasks;
    const unknown = { ...state, tasks: [{ ...entry, task: { ...entry.task, type: 'nosuchtype' } }] };
    expect(await refused(t, unknown)).toMatch(/"tasks\[0\]\.task\.type" "nosuchtype" is not a task type/);
    const mismatched = { ...state, tasks: [{ ...entry, task: { ...entry.task, type: 'categorization' } }] };
    expect(await refused(t, mismatched)).toMatch(/"tasks\[0\]\.task\.params.*does not fit type categorization/);
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(1);
  });

  it('PUT /_mock/state refuses a mime_type with a line break or NUL; the content route never answers 500', async () => {
    const t = makeApp();
    await uploadText(t, 'hi');
    const state = (await t.call('GET', '/_mock/state')).body;
    const [file] = state.files;
    for (const mime of ['text/html\r\nX-Evil: 1', 'text/plain\u0000', 'not a type']) {
      const bad = { ...state, files: [{ ...file, mime_type: mime }] };
      expect(await refused(t, bad)).toMatch(/"files\[0\]\.mime_type" must be a media type/);
    }
    const content = await readContent(t, file.id);
    expect([content.status, content.bytes.toString()]).toEqual([200, 'hi']);
  });
});
