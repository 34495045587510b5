import {
  contract,
  expectConflictNaming,
  expectEqual,
  expectErrorBody,
  expectNoKey,
  expectStatus,
  expectTrue,
} from '../kit/contract.js';
import { createCompletedTask, createPendingTask, holdTasksPending } from '../kit/control.js';
import { createTask, createTaskRequest, expectListed, expectTaskShape, getTask, listTasks } from '../kit/tasks.js';

/** Changing a task: cancel, setMetadata, unique_id and tags. */

contract('POST /v1/task/{id}/cancel moves a pending task to canceled', async (ctx) => {
  await holdTasksPending(ctx);
  const task = await createPendingTask(ctx);
  const res = await ctx.api.post(`/v1/task/${task.task_id}/cancel`);
  expectStatus(res, 200);
  expectTaskShape(res.body, res.request);
  expectEqual(res.body.status, 'canceled', 'status in the cancel response');
  expectEqual((await getTask(ctx.api, task.task_id)).status, 'canceled', 'status read back');
});

contract('POST /v1/task/{id}/cancel on a canceled task answers 200 again', async (ctx) => {
  await holdTasksPending(ctx);
  const task = await createPendingTask(ctx);
  expectStatus(await ctx.api.post(`/v1/task/${task.task_id}/cancel`), 200);
  const again = await ctx.api.post(`/v1/task/${task.task_id}/cancel`);
  expectStatus(again, 200);
  expectEqual(again.body.status, 'canceled', 'status after a repeated cancel');
});

contract('POST /v1/task/{id}/cancel on a completed task answers 400 and leaves it completed', async (ctx) => {
  const task = await createCompletedTask(ctx);
  expectErrorBody(await ctx.api.post(`/v1/task/${task.task_id}/cancel`), 400);
  expectEqual((await getTask(ctx.api, task.task_id)).status, 'completed', 'status after the refused cancel');
});

contract('POST /v1/task/{id}/cancel?clear_unique_id=true frees the unique_id for a new task', async (ctx) => {
  await holdTasksPending(ctx);
  const uniqueId = ctx.unique('uid');
  const task = await createPendingTask(ctx, { unique_id: uniqueId });
  const res = await ctx.api.post(`/v1/task/${task.task_id}/cancel`, undefined, { query: { clear_unique_id: 'true' } });
  expectStatus(res, 200);
  expectEqual(res.body.status, 'canceled', 'status');
  expectNoKey(res.body, 'unique_id', 'task canceled with clear_unique_id=true');
  const next = await createTask(ctx.api, { unique_id: uniqueId });
  expectEqual(next.unique_id, uniqueId, 'unique_id of the new task');
});

contract('POST /v1/task/{id}/cancel without clear_unique_id keeps the unique_id reserved', async (ctx) => {
  await holdTasksPending(ctx);
  const uniqueId = ctx.unique('uid');
  const task = await createPendingTask(ctx, { unique_id: uniqueId });
  const res = await ctx.api.post(`/v1/task/${task.task_id}/cancel`);
  expectStatus(res, 200);
  expectEqual(res.body.unique_id, uniqueId, 'unique_id of the canceled task');
  expectConflictNaming(await createTaskRequest(ctx.api, { unique_id: uniqueId }), task.task_id);
});

contract('POST /v1/task/{id}/setMetadata replaces the metadata and may be repeated', async (ctx) => {
  const task = await createTask(ctx.api, { metadata: { a: 1, b: 2 } });
  const metadata = { c: { deep: [1, 2] } };
  for (let i = 0; i < 2; i += 1) {
    const res = await ctx.api.post(`/v1/task/${task.task_id}/setMetadata`, metadata);
    expectStatus(res, 200);
    expectEqual(res.body.metadata, metadata, `metadata after setMetadata call ${i + 1}`);
  }
  expectEqual((await getTask(ctx.api, task.task_id)).metadata, metadata, 'metadata read back');
});

// updated_at is "the time of last update": each change moves it forward (after a pause, so the
// millisecond differs) and created_at stays. Both changes work whatever the task's status, so a
// target that completes test tasks by itself moves it too, never back.
contract('POST /v1/task/{id}/setMetadata and POST tags move updated_at forward, created_at stays', async (ctx) => {
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  await pause();
  const changed = await ctx.api.post(`/v1/task/${task.task_id}/setMetadata`, { step: 1 });
  expectStatus(changed, 200);
  await ctx.rule('setMetadata moves updated_at past created_at', () => {
    expectEqual(changed.body.created_at, task.created_at, 'created_at after setMetadata');
    expectTrue(changed.body.updated_at > task.created_at, `updated_at ${changed.body.updated_at} after setMetadata`);
  });
  await pause();
  const tagged = await ctx.api.post(`/v1/task/${task.task_id}/tags`, ['moved']);
  expectStatus(tagged, 200);
  await ctx.rule('a tags change moves updated_at again, and a read answers no earlier one', async () => {
    const { updated_at } = tagged.body;
    expectTrue(updated_at > changed.body.updated_at, `updated_at ${updated_at} after the tags change`);
    const read = (await getTask(ctx.api, task.task_id)).updated_at;
    expectTrue(read >= updated_at, `updated_at read back ${read}, earlier than the tags answer's ${updated_at}`);
  });
});

contract('POST /v1/task/{id}/setMetadata with a JSON array answers 400', async (ctx) => {
  const task = await createTask(ctx.api, { metadata: { kept: true } });
  expectErrorBody(await ctx.api.post(`/v1/task/${task.task_id}/setMetadata`, ['not', 'an', 'object']), 400);
  expectEqual((await getTask(ctx.api, task.task_id)).metadata, { kept: true }, 'metadata after the refused call');
});

contract('POST /v1/task/{id}/unique_id sets the unique_id, findable by the list filter', async (ctx) => {
  const task = await createTask(ctx.api);
  const uniqueId = ctx.unique('uid');
  const res = await ctx.api.post(`/v1/task/${task.task_id}/unique_id`, { unique_id: uniqueId });
  expectStatus(res, 200);
  expectEqual(res.body.unique_id, uniqueId, 'unique_id in the response');
  expectEqual((await getTask(ctx.api, task.task_id)).unique_id, uniqueId, 'unique_id read back');
  await expectListed(ctx.api, { unique_id: uniqueId }, [task.task_id], 'tasks listed by the unique_id');
  // Setting a task's own unique_id again is no conflict.
  expectStatus(await ctx.api.post(`/v1/task/${task.task_id}/unique_id`, { unique_id: uniqueId }), 200);
});

contract('POST /v1/task/{id}/unique_id with an id another task holds answers 409 naming that task', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const holder = await createTask(ctx.api, { unique_id: uniqueId });
  const task = await createTask(ctx.api);
  const res = await ctx.api.post(`/v1/task/${task.task_id}/unique_id`, { unique_id: uniqueId });
  expectConflictNaming(res, holder.task_id);
  expectNoKey(await getTask(ctx.api, task.task_id), 'unique_id', 'task after the refused change');
});

contract('POST /v1/task/{id}/unique_id without unique_id answers 400 naming unique_id', async (ctx) => {
  const task = await createTask(ctx.api);
  expectErrorBody(await ctx.api.post(`/v1/task/${task.task_id}/unique_id`, {}), 400, 'unique_id');
});

contract('DELETE /v1/task/{id}/unique_id removes the key and frees the id', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const task = await createTask(ctx.api, { unique_id: uniqueId });
  const res = await ctx.api.delete(`/v1/task/${task.task_id}/unique_id`);
  expectStatus(res, 200);
  expectNoKey(res.body, 'unique_id', 'task after DELETE unique_id');
  expectEqual((await listTasks(ctx.api, { unique_id: uniqueId })).total, 0, 'tasks listed by the removed unique_id');
  const other = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/v1/task/${other.task_id}/unique_id`, { unique_id: uniqueId }), 200);
});

contract('POST /v1/task/{id}/tags replaces all tags, keeping the given order', async (ctx) => {
  const [a, b, c] = [ctx.unique('a'), ctx.unique('b'), ctx.unique('c')];
  const task = await createTask(ctx.api, { tags: [a, b] });
  const res = await ctx.api.post(`/v1/task/${task.task_id}/tags`, [c, a]);
  expectStatus(res, 200);
  expectEqual(res.body.tags, [c, a], 'tags after POST');
  // The list filter follows the change: the removed tag no longer finds the task.
  await expectListed(ctx.api, { tags: c }, [task.task_id], 'tasks listed by the new tag');
  expectEqual((await listTasks(ctx.api, { tags: b })).total, 0, 'tasks listed by the replaced tag');
});

contract('PUT /v1/task/{id}/tags adds tags, ignoring ones already present', async (ctx) => {
  const task = await createTask(ctx.api, { tags: ['a', 'b'] });
  const res = await ctx.api.put(`/v1/task/${task.task_id}/tags`, ['b', 'c', 'd']);
  expectStatus(res, 200);
  expectEqual(res.body.tags, ['a', 'b', 'c', 'd'], 'tags after PUT');
});

contract('PUT /v1/task/{id}/tags on a task without tags creates the tags key', async (ctx) => {
  const task = await createTask(ctx.api);
  const res = await ctx.api.put(`/v1/task/${task.task_id}/tags`, ['first']);
  expectStatus(res, 200);
  expectEqual(res.body.tags, ['first'], 'tags after PUT');
});

contract('DELETE /v1/task/{id}/tags removes tags, ignoring absent ones, keeping order', async (ctx) => {
  const task = await createTask(ctx.api, { tags: ['a', 'b', 'c'] });
  const res = await ctx.api.delete(`/v1/task/${task.task_id}/tags`, ['b', 'not-there']);
  expectStatus(res, 200);
  expectEqual(res.body.tags, ['a', 'c'], 'tags after DELETE');
});

contract(
  'PUT and POST /v1/task/{id}/tags beyond five tags answer 400 naming tags, leaving the tags unchanged',
  async (ctx) => {
    const five = ['a', 'b', 'c', 'd', 'e'];
    const task = await createTask(ctx.api, { tags: five });
    expectErrorBody(await ctx.api.put(`/v1/task/${task.task_id}/tags`, ['f']), 400, 'tags');
    expectErrorBody(await ctx.api.post(`/v1/task/${task.task_id}/tags`, [...five, 'f']), 400, 'tags');
    expectEqual((await getTask(ctx.api, task.task_id)).tags, five, 'tags after the refused changes');
  },
);

contract('POST /v1/task/{id}/tags with an empty string or a non-array answers 400', async (ctx) => {
  const task = await createTask(ctx.api, { tags: ['kept'] });
  for (const body of [['ok', ''], { tags: ['x'] }]) {
    expectErrorBody(await ctx.api.post(`/v1/task/${task.task_id}/tags`, body), 400);
  }
  expectEqual((await getTask(ctx.api, task.task_id)).tags, ['kept'], 'tags after the refused changes');
});
