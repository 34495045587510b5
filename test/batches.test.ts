import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

const GEOMETRIES = { box: { objects_to_annotate: ['car'] } };

async function setup(t: TestApp, projectExtra: Record<string, unknown> = {}) {
  await t.call('POST', '/v1/projects', {
    body: { type: 'imageannotation', name: 'streets', params: { geometries: GEOMETRIES }, ...projectExtra },
  });
}
const batch = (t: TestApp, body: Record<string, unknown> = {}, key?: string) =>
  t.call('POST', '/v1/batches', { key, body: { project: 'streets', name: 'b1', ...body } });
const task = (t: TestApp, body: Record<string, unknown>) =>
  t.call('POST', '/v1/task/imageannotation', { body: { attachment: 'https://x.test/a.png', ...body } });

describe('batches', () => {
  it('POST /v1/batches on a plain project creates an in_progress batch', async () => {
    const t = makeApp();
    await setup(t);
    const res = await batch(t, { callback: 'https://example.com/batch-done' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'b1',
      project: 'streets',
      status: 'in_progress',
      created_at: '2026-01-01T00:00:00.000Z',
      metadata: {},
      callback: 'https://example.com/batch-done',
    });
    expect((await t.call('GET', '/v1/batches/b1')).body).toEqual(res.body);
  });

  it('POST /v1/batches on a rapid or studio project starts in staging; finalize moves it on', async () => {
    const t = makeApp();
    await setup(t, { rapid: true });
    const created = await batch(t, { calibration_batch: true, callback: '' });
    expect(created.body).toMatchObject({ status: 'staging', calibration_batch: true });
    expect(created.body).not.toHaveProperty('callback');
    const finalized = await t.call('POST', '/v1/batches/b1/finalize');
    expect(finalized.body.status).toBe('in_progress');
    expect((await t.call('POST', '/v1/batches/b1/finalize')).status).toBe(200);
  });

  const rejections: [string, Record<string, unknown>, number, RegExp][] = [
    ['an unknown project', { project: 'nope' }, 404, /Project "nope" not found/],
    ['a missing name', { name: undefined }, 400, /"name" is required/],
    [
      'a callback that is neither URL nor e-mail',
      { callback: 'call me' },
      400,
      /"callback" must be a full URL with scheme/,
    ],
    [
      'calibration_batch on a plain project',
      { calibration_batch: true },
      400,
      /"calibration_batch" is only allowed for batches of rapid or studio projects/,
    ],
    ['self_label_batch on a plain project', { self_label_batch: true }, 400, /"self_label_batch" is only allowed/],
  ];
  for (const [what, body, status, message] of rejections) {
    it(`POST /v1/batches rejects ${what}`, async () => {
      const t = makeApp();
      await setup(t);
      const res = await batch(t, body);
      expect(res.status).toBe(status);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /v1/batches with a name the account has is a 409, whatever the project', async () => {
    const t = makeApp();
    await setup(t);
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'fields' } });
    await batch(t);
    const res = await batch(t, { project: 'fields' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/A batch named "b1" already exists/);
  });

  it('a task with batch joins the batch and its project; status counts follow the tasks', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t);
    const a = await task(t, { batch: 'b1' });
    expect(a.body).toMatchObject({ batch: 'b1', project: 'streets', project_param_version: 0 });
    const b = await task(t, { batch: 'b1' });
    await task(t, { batch: 'b1' });
    await t.call('POST', `/_mock/tasks/${a.body.task_id}/complete`);
    await t.call('POST', `/v1/task/${b.body.task_id}/cancel`);
    const status = await t.call('GET', '/v1/batches/b1/status');
    expect(status.body).toEqual({ status: 'in_progress', pending: 1, completed: 1, error: 0, canceled: 1 });
    expect((await t.call('GET', '/v1/tasks?batch=b1')).body.total).toBe(3);
  });

  it('a batch completes once every task is finished; a new task reopens it, and it completes again', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t, { callback: 'ops@example.com' });
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push((await task(t, { batch: 'b1' })).body.task_id);
    await t.call('POST', `/_mock/tasks/${ids[0]}/complete`);
    await t.call('POST', `/_mock/tasks/${ids[1]}/fail`);
    expect((await t.call('GET', '/v1/batches/b1')).body.status).toBe('in_progress');
    t.clock.advance(500);
    await t.call('POST', `/_mock/tasks/${ids[2]}/complete`);
    const done = await t.call('GET', '/v1/batches/b1');
    expect(done.body).toMatchObject({ status: 'completed', completed_at: '2026-01-01T00:00:00.500Z' });
    const late = await task(t, { batch: 'b1' });
    expect(late.status).toBe(200);
    const reopened = await t.call('GET', '/v1/batches/b1');
    expect(reopened.body.status).toBe('in_progress');
    expect(reopened.body).not.toHaveProperty('completed_at');
    t.clock.advance(500);
    await t.call('POST', `/_mock/tasks/${late.body.task_id}/complete`);
    expect((await t.call('GET', '/v1/batches/b1')).body).toMatchObject({
      status: 'completed',
      completed_at: '2026-01-01T00:00:01.000Z',
    });
    // The batch callback fires each time the batch completes.
    const deliveries = (await t.call('GET', '/_mock/callbacks?batch=b1')).body.deliveries;
    expect(deliveries.map((d: { event: string }) => d.event)).toEqual(['batch_completed', 'batch_completed']);
  });

  it('a redone task sends its completed batch back to in progress', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t);
    const id = (await task(t, { batch: 'b1' })).body.task_id;
    await t.call('POST', `/_mock/tasks/${id}/complete`);
    expect((await t.call('GET', '/v1/batches/b1')).body.status).toBe('completed');
    await t.call('POST', `/_mock/tasks/${id}/redo`);
    expect((await t.call('GET', '/v1/batches/b1/status')).body).toEqual({
      status: 'in_progress',
      pending: 1,
      completed: 0,
      error: 0,
      canceled: 0,
    });
  });

  it('a staging batch whose tasks are done completes when finalized', async () => {
    const t = makeApp();
    await setup(t, { studio: true });
    await batch(t);
    const id = (await task(t, { batch: 'b1' })).body.task_id;
    await t.call('POST', `/_mock/tasks/${id}/complete`);
    expect((await t.call('GET', '/v1/batches/b1')).body.status).toBe('staging');
    expect((await t.call('POST', '/v1/batches/b1/finalize')).body.status).toBe('completed');
  });

  it('task creation rejects a batch of another project, an unknown batch and a batch of the other mode', async () => {
    const t = makeApp();
    await setup(t);
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'fields' } });
    await batch(t);
    expect((await task(t, { batch: 'b1', project: 'fields' })).body.error).toMatch(
      /"project" is "fields" but batch "b1" belongs to project "streets"/,
    );
    expect((await task(t, { batch: 'nope' })).status).toBe(404);
    const live = await t.call('POST', '/v1/task/imageannotation', {
      key: 'live_acme',
      body: { attachment: 'https://x.test/a.png', batch: 'b1' },
    });
    expect(live.status).toBe(400);
    expect(live.body.error).toMatch(/created with a test key; a live key cannot use it/);
  });

  it('GET /v1/batches pages by limit and offset, newest first, with totalDocs and total', async () => {
    const t = makeApp();
    await setup(t);
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'fields' } });
    for (let i = 0; i < 5; i += 1) {
      await batch(t, { name: `b${i}`, project: i % 2 ? 'fields' : 'streets' });
      t.clock.advance(1000);
    }
    const page = await t.call('GET', '/v1/batches?limit=2&offset=1');
    expect(page.body).toMatchObject({ totalDocs: 5, total: 5, limit: 2, offset: 1, has_more: true });
    expect(page.body.docs.map((b: { name: string }) => b.name)).toEqual(['b3', 'b2']);
    const last = await t.call('GET', '/v1/batches?limit=2&offset=4');
    expect(last.body.has_more).toBe(false);
    const byProject = await t.call('GET', '/v1/batches?project=fields');
    expect(byProject.body.docs.map((b: { name: string }) => b.name)).toEqual(['b3', 'b1']);
    const window = await t.call('GET', '/v1/batches?start_time=2026-01-01T00:00:01Z&end_time=2026-01-01T00:00:02Z');
    expect(window.body.docs.map((b: { name: string }) => b.name)).toEqual(['b2', 'b1']);
    expect((await t.call('GET', '/v1/batches?status=completed')).body.total).toBe(0);
    expect((await t.call('GET', '/v1/batches?status=done')).status).toBe(400);
    const detailed = await t.call('GET', '/v1/batches?detailed=true&limit=1');
    expect(detailed.body.docs[0].tasks).toEqual({ pending: 0, completed: 0, error: 0, canceled: 0 });
  });

  it('POST /v1/batches/{name}/prioritize takes 10 to 30 and answers {result: success}', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t);
    const ok = await t.call('POST', '/v1/batches/b1/prioritize', { body: { priority: 25 } });
    expect(ok.body).toEqual({ result: 'success' });
    expect((await t.call('GET', '/v1/batches/b1')).body.priority).toBe(25);
    const low = await t.call('POST', '/v1/batches/b1/prioritize', { body: { priority: 9 } });
    expect(low.body.error).toMatch(/"priority" must be at least 10/);
  });

  it('batch names travel percent-encoded in paths', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t, { name: 'week 1/day 2' });
    expect((await t.call('GET', `/v1/batches/${encodeURIComponent('week 1/day 2')}/status`)).body.status).toBe(
      'in_progress',
    );
  });

  it('reset drops the projects and batches of the caller mode only', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t);
    await t.call('POST', '/v1/projects', { key: 'live_acme', body: { type: 'imageannotation', name: 'live-project' } });
    await t.call('POST', '/_mock/reset');
    expect((await t.call('GET', '/v1/projects')).body.map((p: { name: string }) => p.name)).toEqual(['live-project']);
    expect((await t.call('GET', '/v1/batches/b1')).status).toBe(404);
  });
});

describe('state export and import with projects and batches', () => {
  it('GET and PUT /_mock/state carry projects, batches and their tasks', async () => {
    const t = makeApp();
    await setup(t);
    await batch(t);
    await task(t, { batch: 'b1' });
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.projects.map((p: { name: string }) => p.name)).toEqual(['streets']);
    expect(state.batches.map((b: { name: string }) => b.name)).toEqual(['b1']);
    const put = await t.call('PUT', '/_mock/state', { key: 'test_copy', body: state });
    expect(put.status).toBe(200);
    expect((await t.call('GET', '/v1/batches/b1/status', { key: 'test_copy' })).body).toMatchObject({ pending: 1 });
    const orphan = { ...state, projects: [] };
    expect((await t.call('PUT', '/_mock/state', { key: 'test_copy2', body: orphan })).body.error).toMatch(
      /"batches\[0\].project" names "streets"/,
    );
    const taken = await t.call('PUT', '/_mock/state', { key: 'live_acme', body: { ...state, tasks: [] } });
    expect(taken.body.error).toMatch(/"projects\[0\].name" "streets" is already used in this account/);
  });
});
