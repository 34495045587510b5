import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp, type TestApp, withResultFile } from './helpers.js';

const DEF = {
  type: 'imageannotation',
  instruction: 'Check the boxes.',
  geometries: { point: { objects_to_annotate: ['wheel'] } },
};

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
    expect(early.body.error).toMatch(/is pending; dependents are created only for a completed task/);
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

  it('force_creation on a canceled root is a 400: dependents follow a completed root only', async () => {
    const t = makeApp();
    const root = await rootWithDependents(t, { defs: [DEF] });
    await t.call('POST', `/v1/task/${root.task_id}/cancel`);
    const res = await t.call('POST', `/v1/task/${root.task_id}/dependents/force_creation`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/is canceled/);
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
    const badType = await t.call('POST', `/v1/task/${task.task_id}/dependents/options`, {
      body: { defs: [{ type: 'nosuch' }] },
    });
    expect(badType.body.error).toMatch(/"defs\[0\].type" must be a task type/);
    const badDef = await t.call('POST', `/v1/task/${task.task_id}/dependents/options`, {
      body: { defs: [{ type: 'imageannotation', geometries: {} }] },
    });
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

describe('dependents of a lidarannotation root', () => {
  const GEOMETRIES = { polygon: { objects_to_annotate: ['car', 'truck'] }, line: { objects_to_annotate: ['lane'] } };

  async function lidarRoot(t: TestApp, defs: Record<string, unknown>[]) {
    const { fixture } = await import('../src/fixtures.js');
    const root = (
      await t.call('POST', '/v1/task/lidarannotation', {
        body: { ...fixture<Record<string, unknown>>('tasks/lidarannotation.create.json'), callback_url: undefined },
      })
    ).body;
    const res = await t.call('POST', `/v1/task/${root.task_id}/dependents/options`, { body: { defs } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const completed = (await t.call('POST', `/_mock/tasks/${root.task_id}/complete`)).body;
    expect(completed.dependents_error, completed.dependents_error).toBeUndefined();
    return completed;
  }

  it('lidarsegmentation and lidarlinking dependents refer to the root and share its frames', async () => {
    const t = makeApp();
    const root = await lidarRoot(t, [
      { type: 'lidarsegmentation', instruction: 'Classify every point.', labels: ['road', 'car'] },
      { type: 'lidarlinking', instruction: 'Link the cuboids.', annotation_type: 'annotation' },
    ]);
    const [segmentation, linking] = await Promise.all(
      root.dependents.map(async (id: string) => (await t.call('GET', `/v1/task/${id}`)).body),
    );
    expect(segmentation.params).toMatchObject({
      lidar_task: root.task_id,
      attachments: root.params.attachments,
      attachment_type: 'json',
    });
    expect(linking.params.lidar_task).toBe(root.task_id);
  });

  it('a lidartopdown dependent gets the root cuboids as polygons, unless disable_cuboid_projection', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'lidartopdown', name: 'maps' } });
    await t.call('POST', '/v1/batches', { body: { project: 'maps', name: 'maps-1' } });
    const topdown = {
      type: 'lidartopdown',
      batch: 'maps-1',
      geometries: GEOMETRIES,
      region_of_interest_3d: { x: 0, y: 0, width: 100, height: 100 },
    };
    const root = await lidarRoot(t, [topdown, { ...topdown, disable_cuboid_projection: true }]);
    const [projected, plain] = await Promise.all(
      root.dependents.map(async (id: string) => (await t.call('GET', `/v1/task/${id}`)).body),
    );
    const { response } = await withResultFile(t, root);
    const cuboids = response.annotations[0].cuboids.filter((c: { label: string }) =>
      ['car', 'truck'].includes(c.label),
    );
    expect(cuboids.length).toBeGreaterThan(0);
    expect(projected.params.base_annotations.annotations.map((a: { uuid: string }) => a.uuid)).toEqual(
      cuboids.map((c: { uuid: string }) => c.uuid),
    );
    expect(projected.params.base_annotations.annotations[0]).toMatchObject({
      type: 'polygon',
      vertices: expect.arrayContaining([expect.objectContaining({ x: expect.any(Number) })]),
    });
    expect(plain.params).not.toHaveProperty('base_annotations');
  });
});
