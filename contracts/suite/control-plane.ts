import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectNoKey,
  expectOneOf,
  expectStatus,
  expectTrue,
  expectType,
} from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { createTask, getTask, ISO_MS, LEAF_LABELS, randomTaskId, TASK_NOT_FOUND } from '../kit/tasks.js';

/** Control-plane task transitions: complete (synthesized or given response), fail and redo. */

/** Every control-plane contract needs the plane, and tasks that stay pending until told otherwise. */
async function pendingTask(ctx: ContractContext, overrides: Record<string, unknown> = {}) {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  return createTask(ctx.api, overrides);
}

const complete = (ctx: ContractContext, taskId: string, body?: unknown) =>
  ctx.api.post(`/_mock/tasks/${taskId}/complete`, body);

contract('POST /_mock/tasks/{id}/complete synthesizes a response that fits the task', async (ctx) => {
  const task = await pendingTask(ctx);
  const res = await complete(ctx, task.task_id);
  expectStatus(res, 200);
  const done = res.body;
  expectEqual(done.status, 'completed', 'status');
  expectMatch(done.completed_at, ISO_MS, 'completed_at');
  expectType(done.response, 'object', 'response');
  const annotations = done.response.annotations;
  expectTrue(
    Array.isArray(annotations) && annotations.length > 0,
    `response.annotations: expected a non-empty array, got ${JSON.stringify(annotations)}`,
  );
  for (const [i, annotation] of annotations.entries()) {
    // Lines and ellipses are shown as polygons; this task asks for boxes and polygons only.
    expectOneOf(annotation.type, Object.keys(LEAF_LABELS), `response.annotations[${i}].type`);
    expectOneOf(
      annotation.label,
      LEAF_LABELS[annotation.type] ?? [], // a type outside LEAF_LABELS failed just above
      `response.annotations[${i}].label (a leaf label of its geometry)`,
    );
    expectType(annotation.uuid, 'string', `response.annotations[${i}].uuid`);
  }
  expectEqual(await getTask(ctx.api, task.task_id), done, 'task read back after completion');
});

contract('POST /_mock/tasks/{id}/complete with a valid response stores that response', async (ctx) => {
  const task = await pendingTask(ctx);
  const annotation = {
    type: 'box',
    uuid: 'c0ffee00-0000-4000-8000-000000000001',
    label: 'truck',
    attributes: {},
    left: 10,
    top: 20,
    width: 30,
    height: 40,
  };
  const res = await complete(ctx, task.task_id, { response: { annotations: [annotation] } });
  expectStatus(res, 200);
  expectEqual(res.body.status, 'completed', 'status');
  expectEqual(res.body.response?.annotations, [annotation], 'response.annotations');
});

contract(
  'POST /_mock/tasks/{id}/complete with a label the task does not have answers 400 naming the label',
  async (ctx) => {
    const task = await pendingTask(ctx);
    const annotation = {
      type: 'box',
      uuid: 'c0ffee00-0000-4000-8000-000000000002',
      label: 'giraffe',
      attributes: {},
      left: 1,
      top: 1,
      width: 5,
      height: 5,
    };
    expectErrorBody(await complete(ctx, task.task_id, { response: { annotations: [annotation] } }), 400, 'giraffe');
    expectEqual((await getTask(ctx.api, task.task_id)).status, 'pending', 'status after the refused completion');
  },
);

contract('POST /_mock/tasks/{id}/complete with a geometry the task did not ask for answers 400', async (ctx) => {
  const task = await pendingTask(ctx);
  const annotation = {
    type: 'point',
    uuid: 'c0ffee00-0000-4000-8000-000000000003',
    label: 'car',
    attributes: {},
    x: 1,
    y: 2,
  };
  expectErrorBody(await complete(ctx, task.task_id, { response: { annotations: [annotation] } }), 400, 'point');
});

contract('POST /_mock/tasks/{id}/complete on a task that is not pending answers 400', async (ctx) => {
  const task = await pendingTask(ctx);
  expectStatus(await complete(ctx, task.task_id), 200);
  expectErrorBody(await complete(ctx, task.task_id), 400);
  const canceled = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/v1/task/${canceled.task_id}/cancel`), 200);
  expectErrorBody(await complete(ctx, canceled.task_id), 400);
});

contract('POST /_mock/tasks/{id}/complete with an unknown id answers 404', async (ctx) => {
  await ctx.needControlPlane();
  const res = await complete(ctx, randomTaskId());
  expectErrorBody(res, 404);
  expectEqual(res.body.error, TASK_NOT_FOUND, `${res.request} error`);
});

contract(
  'POST /_mock/tasks/{id}/fail with clear_unique_id_on_error moves the task to error and frees the unique_id',
  async (ctx) => {
    const uniqueId = ctx.unique('uid');
    const task = await pendingTask(ctx, { unique_id: uniqueId, clear_unique_id_on_error: true });
    const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/fail`);
    expectStatus(res, 200);
    expectEqual(res.body.status, 'error', 'status');
    expectNoKey(res.body, 'unique_id', 'failed task with clear_unique_id_on_error');
    const next = await createTask(ctx.api, { unique_id: uniqueId });
    expectEqual(next.unique_id, uniqueId, 'unique_id reused by a new task');
  },
);

contract('POST /_mock/tasks/{id}/fail without clear_unique_id_on_error keeps the unique_id', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const task = await pendingTask(ctx, { unique_id: uniqueId });
  const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/fail`, { error: 'attachment could not be downloaded' });
  expectStatus(res, 200);
  expectEqual([res.body.status, res.body.unique_id], ['error', uniqueId], 'status and unique_id');
  expectErrorBody(await ctx.api.post(`/_mock/tasks/${task.task_id}/fail`), 400);
});

contract('POST /_mock/tasks/{id}/redo sends a completed task back to pending with times_redone 1', async (ctx) => {
  const task = await pendingTask(ctx);
  expectErrorBody(await ctx.api.post(`/_mock/tasks/${task.task_id}/redo`), 400);
  const done = (await complete(ctx, task.task_id)).body;
  expectNoKey(done, 'times_redone', 'completed task never redone');
  const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/redo`);
  expectStatus(res, 200);
  expectEqual([res.body.status, res.body.times_redone], ['pending', 1], 'status and times_redone');
  expectStatus(await complete(ctx, task.task_id), 200);
  const again = await ctx.api.post(`/_mock/tasks/${task.task_id}/redo`);
  expectEqual(again.body.times_redone, 2, 'times_redone after a second redo');
});
