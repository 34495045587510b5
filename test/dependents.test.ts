import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp, type TestApp } from './helpers.js';

const DEF = { type: 'imageannotation', instruction: 'Check the boxes.', geometries: { point: { objects_to_annotate: ['wheel'] } } };

async function rootWithDependents(t: TestApp, options: Record<string, unknown>) {
  const root = await createImageTask(t, { callback_url: undefined });
  const res = await t.call('POST', `/v1/task/${root.task_id}/dependents/options`, { body: options });
  expect(res.status).toBe(200);
  return root;
}

describe('dependent tasks', () => {
  it('POST /v1/task/{id}/dependents/options stores defs; the dependents appear when the root completes', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF, { ...DEF, instruction: 'Second pass.' }] });
    expect((await t.call('GET', `/v1/task/${root.task_id}`)).body.dependents).toEqual([]);
    const completed = await t.call('POST', `/_mock/tasks/${root.task_id}/complete`);
    expect(completed.body.dependents).toHaveLength(2);
    const dependent = (await t.call('GET', `/v1/task/${completed.body.dependents[0]}`)).body;
    expect(dependent).toMatchObject({ type: 'imageannotation', status: 'pending', instruction: 'Check the boxes.' });
    // The same data item: the root's attachment is inherited.
    expect(dependent.params.attachment).toBe(root.params.attachment);
  });

  it('with require_audit the dependents wait for an accepting (or fixing) audit', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF], require_audit: true });
    await t.call('POST', `/_mock/tasks/${root.task_id}/complete`);
    expect((await t.call('GET', `/v1/task/${root.task_id}`)).body.dependents).toEqual([]);
    await t.call('POST', `/v1/task/${root.task_id}/audit`, { body: { accepted: false } });
    expect((await t.call('GET', `/v1/task/${root.task_id}`)).body.dependents).toEqual([]);
    const accepted = await t.call('POST', `/v1/task/${root.task_id}/audit`, { body: { accepted: true } });
    expect(accepted.body.dependents).toHaveLength(1);
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(2);
  });

  it('a reviewer fix also releases dependents waiting for an audit', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF], require_audit: true });
    await t.call('POST', `/_mock/tasks/${root.task_id}/complete`);
    const fixed = await t.call('POST', `/_mock/tasks/${root.task_id}/audit`, { body: { result: 'fixed' } });
    expect(fixed.body.dependents).toHaveLength(1);
  });

  it('POST /v1/task/{id}/dependents/force_creation skips the audit, once, and only for a finished root', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF], require_audit: true });
    const early = await t.call('POST', `/v1/task/${root.task_id}/dependents/force_creation`);
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/is not finished/);
    await t.call('POST', `/_mock/tasks/${root.task_id}/complete`);
    const forced = await t.call('POST', `/v1/task/${root.task_id}/dependents/force_creation`, { raw: '' });
    expect(forced.status).toBe(200);
    expect(forced.body.dependents).toHaveLength(1);
    const again = await t.call('POST', `/v1/task/${root.task_id}/dependents/force_creation`);
    expect(again.status).toBe(400);
    expect(again.body.error).toMatch(/exist already/);
    await t.call('POST', `/v1/task/${root.task_id}/audit`, { body: { accepted: true } });
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(2);
  });

  it('force_creation without options is a 400', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const res = await t.call('POST', `/v1/task/${task.task_id}/dependents/force_creation`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/has no dependent tasks defined/);
  });

  it('dependents/options is refused once the root is finished, and checks each def as a creation request', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const badType = await t.call('POST', `/v1/task/${task.task_id}/dependents/options`, { body: { defs: [{ type: 'nosuch' }] } });
    expect(badType.body.error).toMatch(/"defs\[0\].type" must be a task type/);
    const badDef = await t.call('POST', `/v1/task/${task.task_id}/dependents/options`, { body: { defs: [{ type: 'imageannotation', geometries: {} }] } });
    expect(badDef.status).toBe(400);
    expect(badDef.body.error).toMatch(/"defs\[0\].geometries" must name at least one geometry/);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const late = await t.call('POST', `/v1/task/${task.task_id}/dependents/options`, { body: { defs: [DEF] } });
    expect(late.status).toBe(400);
    expect(late.body.error).toMatch(/only while it is pending/);
  });

  it('the root callback lists the dependents it created', async () => {
    const t = makeApp();
    const root = await createImageTask(t, { callback_url: 'results@example.com' });
    await t.call('POST', `/v1/task/${root.task_id}/dependents/options`, { body: { defs: [DEF] } });
    await t.call('POST', `/_mock/tasks/${root.task_id}/complete`);
    const [delivery] = (await t.call('GET', `/_mock/callbacks?task_id=${root.task_id}`)).body.deliveries;
    expect(delivery.body.task.dependents).toHaveLength(1);
  });
});

describe('dependent options in state export', () => {
  it('GET/PUT /_mock/state keeps pending dependent definitions', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF] });
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.tasks[0].dependent_options).toEqual({ defs: [DEF], require_audit: false, created: false });
    await t.call('PUT', '/_mock/state', { key: 'test_copy', body: state });
    const completed = await t.call('POST', `/_mock/tasks/${root.task_id}/complete`, { key: 'test_copy' });
    expect(completed.body.dependents).toHaveLength(1);
  });
});
