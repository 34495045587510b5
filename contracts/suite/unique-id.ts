import {
  contract,
  expectConflictNaming,
  expectEqual,
  expectNotEqual,
  expectStatus,
  setupStep,
} from '../kit/contract.js';
import { createTask, createTaskRequest, expectListed, fullDocsOf, idsOf, listTasks } from '../kit/tasks.js';

/** unique_id on task creation: reserved per account, refused with a 409 that points at the holder. */

contract(
  'POST /v1/task/imageannotation with a used unique_id answers 409 naming the task that holds it',
  async (ctx) => {
    const uniqueId = ctx.unique('uid');
    const tag = ctx.unique('dup');
    const holder = await createTask(ctx.api, { unique_id: uniqueId, tags: [tag] });
    const res = await createTaskRequest(ctx.api, { unique_id: uniqueId, tags: [tag] });
    expectConflictNaming(res, holder.task_id);
    await expectListed(ctx.api, { tags: tag }, [holder.task_id], 'tasks after the refused creation');
  },
);

contract('POST /v1/task/imageannotation with a used unique_id is refused even with other parameters', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const holder = await createTask(ctx.api, { unique_id: uniqueId });
  const res = await createTaskRequest(ctx.api, {
    unique_id: uniqueId,
    instruction: 'A different task altogether.',
    priority: 10,
  });
  expectConflictNaming(res, holder.task_id);
});

contract('POST /v1/task/imageannotation may reuse a unique_id after DELETE /v1/task/{id}/unique_id', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const first = await createTask(ctx.api, { unique_id: uniqueId });
  expectStatus(await ctx.api.delete(`/v1/task/${first.task_id}/unique_id`), 200);
  const second = await createTask(ctx.api, { unique_id: uniqueId });
  expectNotEqual(second.task_id, first.task_id, 'task_id of the new holder');
  await expectListed(ctx.api, { unique_id: uniqueId }, [second.task_id], 'tasks listed by the unique_id');
});

contract('GET /v1/tasks?unique_id= finds exactly the task created with it', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const task = await createTask(ctx.api, { unique_id: uniqueId });
  await createTask(ctx.api, { unique_id: ctx.unique('uid') });
  const list = await listTasks(ctx.api, { unique_id: uniqueId });
  expectEqual(list.total, 1, 'total');
  expectEqual(idsOf(list), [task.task_id], 'tasks');
  expectEqual(fullDocsOf(list, 'GET /v1/tasks')[0]?.unique_id, uniqueId, 'unique_id of the listed task');
});

contract('POST /v1/task/imageannotation with a unique_id used in another project answers 409', async (ctx) => {
  const projects: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const name = ctx.unique('uidproject');
    await setupStep('create a project', async () =>
      expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name }), 200),
    );
    projects.push(name);
  }
  const uniqueId = ctx.unique('uid');
  const holder = await createTask(ctx.api, { unique_id: uniqueId, project: projects[0] });
  // unique_id is unique across all projects of the account, not per project.
  expectConflictNaming(await createTaskRequest(ctx.api, { unique_id: uniqueId, project: projects[1] }), holder.task_id);
});
