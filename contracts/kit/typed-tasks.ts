import type { CompletedTask, Task, TaskOfType } from './answers.js';
import type { ContractContext } from './contract.js';
import { holdTasksPending } from './control.js';
import { expectEqual, expectStatus, expectType, fail, setupStep } from './expect.js';
import { expectTaskType } from './tasks.js';

/** Creating and completing tasks of any type, shared by the per-type suites. */

export type Body = Record<string, unknown>;

/** A new task of `type`: 200 with that type (the Task table's shape has its own contracts). */
export async function createOf<Type extends string>(
  ctx: ContractContext,
  type: Type,
  body: Body,
): Promise<TaskOfType<Type>> {
  const res = await ctx.api.post(`/v1/task/${type}`, body);
  expectStatus(res, 200);
  expectType(res.body, 'object', res.request);
  const task: unknown = res.body;
  expectTaskType(task, type, res.request);
  return task;
}

/** A pending task of `type` on a target with a control plane (skipped elsewhere). */
export async function pendingOf<Type extends string>(
  ctx: ContractContext,
  type: Type,
  body: Body,
): Promise<TaskOfType<Type>> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  return setupStep(`create a pending ${type} task`, () => createOf(ctx, type, body));
}

/** A task of `type` completed through the control plane with `response`, or a synthesized one. */
export async function completedOf<Type extends string>(
  ctx: ContractContext,
  type: Type,
  body: Body,
  response?: unknown,
): Promise<CompletedTask<Type>> {
  const task = await pendingOf(ctx, type, body);
  if (response === undefined)
    return setupStep(`complete a ${type} task`, () => complete(ctx, type, task.task_id, response));
  return complete(ctx, type, task.task_id, response);
}

async function complete<Type extends string>(
  ctx: ContractContext,
  type: Type,
  taskId: string,
  response: unknown,
): Promise<CompletedTask<Type>> {
  const res = await ctx.api.post(`/_mock/tasks/${taskId}/complete`, response === undefined ? undefined : { response });
  expectStatus(res, 200);
  expectEqual(res.body.status, 'completed', 'status');
  expectType(res.body.response, 'object', 'response');
  const completed: unknown = res.body;
  expectTaskType(completed, type, res.request);
  expectResponse(completed, res.request);
  return completed;
}

function expectResponse<Type extends string>(
  task: TaskOfType<Type>,
  what: string,
): asserts task is CompletedTask<Type> {
  if (task.response === undefined) fail(`${what}: a completed task without a response`);
}

/** One rule per key: the task's params hold what was sent (a target dropping one key breaks only that rule). */
export async function expectParamsEcho(ctx: ContractContext, task: Task, body: Body, keys: readonly string[]) {
  const params: Record<string, unknown> = task.params ?? {};
  for (const key of keys)
    await ctx.rule(`params.${key} is the value sent`, () => expectEqual(params[key], body[key], `params.${key}`));
}
