import { contract, expectEqual } from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { openEventStream } from '../kit/events.js';
import { journaledRequests } from '../kit/journal.js';
import { createTask } from '../kit/tasks.js';

/** The event stream (GET /_mock/events): a test waits on it instead of polling. */

contract('GET /_mock/events streams task.created and task.completed naming the task', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const events = await openEventStream(ctx);
  const task = await createTask(ctx.api);
  const created = await events.waitFor('task.created', (data) => data.task_id === task.task_id);
  await ctx.rule('task.created carries the type and status', () => {
    expectEqual(created.type, 'task.created', 'data.type');
    expectEqual(created.status, 'pending', 'data.status');
  });
  await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`);
  const completed = await events.waitFor('task.completed', (data) => data.task_id === task.task_id);
  expectEqual(completed.status, 'completed', 'task.completed data.status');
});

contract('GET /_mock/events sends a request event naming its journal entry', async (ctx) => {
  await ctx.needControlPlane();
  const task = await createTask(ctx.api);
  const events = await openEventStream(ctx);
  await ctx.api.get(`/v1/task/${task.task_id}`);
  const request = await events.waitFor('request', (data) => data.path === `/v1/task/${task.task_id}`);
  await ctx.rule('the request event names method and status', () => {
    expectEqual(request.method, 'GET', 'data.method');
    expectEqual(request.status, 200, 'data.status');
  });
  const [entry] = await journaledRequests(ctx.api, { path: `/v1/task/${task.task_id}`, limit: 1 });
  expectEqual(entry?.id, request.request_id, 'the newest journal entry of that path');
});
