import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

/**
 * v2 as its own documentation (docs.genai.scale.com) describes it, where the Python client's models say less.
 * Where the two disagree, labelmock follows the client: docs/fidelity.md says which and why.
 */

const immediate = (t: TestApp) => t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });

async function chatProject(t: TestApp, name = 'chats') {
  expect((await t.call('POST', '/v1/projects', { body: { type: 'chat', name } })).status).toBe(200);
}

async function chatTask(t: TestApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v2/task', { body: { template_variables: { topic: 'x' }, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const taskStatus = async (t: TestApp, id: string) => (await t.call('GET', `/v2/task?task_id=${id}`)).body.status;

describe('batches hold their tasks while staging and (unstarted ones) while paused', () => {
  // v2's finalize: contracts/suite/v2.ts. v1's follows the same rule (services/completion.ts holdsCompletion).
  it('v1 finalize follows the same rule', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'img', rapid: true } });
    await immediate(t);
    const batch = await t.call('POST', '/v1/batches', { body: { project: 'img', name: 'staged' } });
    expect(batch.body.status).toBe('staging');
    const task = await t.call('POST', '/v1/task/imageannotation', {
      body: {
        project: 'img',
        batch: 'staged',
        attachment: 'https://example.com/a.jpg',
        geometries: { box: { objects_to_annotate: ['car'] } },
      },
    });
    expect((await t.call('GET', `/v1/task/${task.body.task_id}`)).body.status).toBe('pending');
    expect((await t.call('POST', '/v1/batches/staged/finalize')).body.status).toBe('in_progress');
    expect((await t.call('GET', `/v1/task/${task.body.task_id}`)).body.status).toBe('completed');
  });

  // v2/batch-pause: only unstarted tasks are paused; v2/batch-resume: the batch moves to in_progress.
  it('pause holds unstarted tasks only (POST /_mock/tasks/{id}/start); resume answers in_progress', async () => {
    const t = makeApp();
    await chatProject(t);
    const batch = await t.call('POST', '/v2/batch', { body: { name: 'b', project_name: 'chats' } });
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'delay', delay_ms: 1000 } } });
    const started = await chatTask(t, { batch_id: batch.body.id });
    const unstarted = await chatTask(t, { batch_id: batch.body.id });
    expect((await t.call('POST', `/_mock/tasks/${started.task_id}/start`)).body.work_started).toBe(true);
    await t.call('POST', '/v2/batch/pause', { body: { batch_id: batch.body.id } });
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 1000 } });
    expect(await taskStatus(t, started.task_id)).toBe('completed');
    expect(await taskStatus(t, unstarted.task_id)).toBe('pending');
    const resumed = await t.call('POST', '/v2/batch/resume', { body: { batch_id: batch.body.id } });
    expect(resumed.body.batch.status).toBe('in_progress');
    expect(await taskStatus(t, unstarted.task_id)).toBe('completed');
    expect((await t.call('GET', `/v2/batch?batch_id=${batch.body.id}`)).body.status).toBe('completed');
  });
});

describe('deliveries', () => {
  async function delivered(t: TestApp) {
    await chatProject(t);
    const done = await chatTask(t, { project_name: 'chats' });
    const undelivered = await chatTask(t, { project_name: 'chats' });
    const pending = await chatTask(t, { project_name: 'chats' });
    await t.call('POST', `/_mock/tasks/${done.task_id}/complete`);
    await t.call('POST', '/_mock/v2/deliveries', { body: { name: 'week-1', project: 'chats' } });
    await t.call('POST', `/_mock/tasks/${undelivered.task_id}/complete`);
    return { done, undelivered, pending };
  }

  // The client's get_delivery_tasks: "Tasks without delivered responses will have null values for
  // delivery-related fields"; GetDeliveryTasksResponse.total: "number of tasks returned in the current page".
  it('GET /v2/delivery/tasks of a project: its tasks, undelivered ones with nulls; total counts the page', async () => {
    const t = makeApp();
    const { done, undelivered, pending } = await delivered(t);
    const res = await t.call('GET', '/v2/delivery/tasks?project_name=chats&limit=2');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.next_token).toEqual(expect.any(String));
    const rest = await t.call('GET', `/v2/delivery/tasks?project_name=chats&next_token=${res.body.next_token}`);
    const docs = [...res.body.docs, ...rest.body.docs];
    expect(docs.map((doc: { task_id: string }) => doc.task_id)).toEqual([
      pending.task_id,
      undelivered.task_id,
      done.task_id,
    ]);
    const byId = new Map(docs.map((doc: { task_id: string }) => [doc.task_id, doc]));
    expect(byId.get(undelivered.task_id)).toMatchObject({ delivery_id: null, delivered_at: null, response: null });
    const task = await t.call('GET', `/v2/task?task_id=${done.task_id}`);
    expect(byId.get(done.task_id)).toMatchObject({
      delivery_id: expect.any(String),
      response: { threads: task.body.threads },
    });
    const completed = await t.call('GET', '/v2/delivery/tasks?project_name=chats&status=completed');
    expect(completed.body.total).toBe(2);
  });

  it('the project is required by /v2/deliveries and by a delivery named, as the docs say', async () => {
    const t = makeApp();
    await delivered(t);
    const list = await t.call('GET', '/v2/deliveries');
    expect(list.body.error).toMatch(/one of "project_id", "project_name" is required/);
    expect((await t.call('GET', '/v2/deliveries?project_name=chats')).body.deliveries).toHaveLength(1);
    const byName = await t.call('GET', '/v2/delivery?delivery_name=week-1');
    expect(byName.status).toBe(400);
    expect((await t.call('GET', '/v2/delivery?delivery_name=week-1&project_name=chats')).status).toBe(200);
    const datasets = await t.call('GET', '/v2/datasets/deliveries');
    expect(datasets.body.error).toMatch(/"dataset_id" is required/);
  });
});

describe('schemas', () => {
  it('GET /v2/schema: a malformed id is a 400; a schema has a name and who and when made it', async () => {
    const t = makeApp();
    const malformed = await t.call('GET', '/v2/schema?schema_id=not-an-id');
    expect(malformed.body).toEqual({
      status_code: 400,
      error:
        'Parameter is invalid, reason: "schema_id" must be an ObjectId: 24 hex digits ' +
        '(invalid MongoDB ObjectId format)',
    });
    const made = await t.call('POST', '/_mock/v2/schemas', { body: { name: 'answers', json: { type: 'object' } } });
    const res = await t.call('GET', `/v2/schema?schema_id=${made.body.schema.id}`);
    expect(res.body.schema).toEqual({
      id: made.body.schema.id,
      json: '{"type":"object"}',
      name: 'answers',
      createdBy: 'acme',
      createdAt: expect.any(String),
      updatedBy: 'acme',
      updatedAt: res.body.schema.createdAt,
    });
  });
});

describe('tasks and batches', () => {
  it('metadata merge: true merges deeply; arrays and other values replace', async () => {
    const t = makeApp();
    await chatProject(t);
    const task = await chatTask(t, { project_name: 'chats', metadata: { a: { x: 1, y: [1] }, b: 1 } });
    const res = await t.call('POST', '/v2/task/metadata', {
      body: { task_id: task.task_id, metadata: { a: { y: [2], z: 3 } }, merge: true },
    });
    expect(res.body.metadata).toEqual({ a: { x: 1, y: [2], z: 3 }, b: 1 });
  });

  // api-reference/idempotency: unique_id in a creation body; a second task with it is a 409.
  it('POST /v2/task takes unique_id; its reuse is a 409', async () => {
    const t = makeApp();
    await chatProject(t);
    await chatTask(t, { project_name: 'chats', unique_id: 'chat-1' });
    const again = await t.call('POST', '/v2/task', { body: { project_name: 'chats', unique_id: 'chat-1' } });
    expect(again.status).toBe(409);
  });

  it("POST /v2/batch takes the docs' project (a name or an id) beside project_id/project_name", async () => {
    const t = makeApp();
    await chatProject(t);
    const byName = await t.call('POST', '/v2/batch', { body: { name: 'a', project: 'chats' } });
    expect(byName.status).toBe(200);
    const byId = await t.call('POST', '/v2/batch', { body: { name: 'b', project: byName.body.project } });
    expect(byId.body.project).toBe(byName.body.project);
    const disagree = await t.call('POST', '/v2/batch', { body: { name: 'c', project: 'chats', project_name: 'x' } });
    expect(disagree.status).toBe(400);
    expect(disagree.body.error).toMatch(/"project" and "project_name" differ/);
  });

  it('POST /_mock/tasks/{id}/fail with a type shows it in v2 errors[].type', async () => {
    const t = makeApp();
    await chatProject(t);
    const task = await chatTask(t, { project_name: 'chats' });
    await t.call('POST', `/_mock/tasks/${task.task_id}/fail`, {
      body: { error: 'The prompt is too long', type: 'PROMPT_LENGTH_EXCEEDED' },
    });
    const res = await t.call('GET', `/v2/task?task_id=${task.task_id}`);
    expect(res.body.errors).toEqual([{ type: 'PROMPT_LENGTH_EXCEEDED', message: 'The prompt is too long' }]);
  });
});
