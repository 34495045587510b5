import type { ContractContext } from './contract.js';
import { holdTasksPending } from './control.js';
import { expectEqual, expectStatus, expectType, setupStep } from './expect.js';
import type { Wire } from './wire.js';

/** Creating and completing tasks of any type, shared by the per-type suites. */

export type Body = Record<string, Wire>;

/** A new task of `type`: 200 with that type (the Task table's shape has its own contracts). */
export async function createOf(ctx: ContractContext, type: string, body: Body): Promise<Wire> {
  const res = await ctx.api.post(`/v1/task/${type}`, body);
  expectStatus(res, 200);
  expectType(res.body, 'object', res.request);
  expectEqual(res.body.type, type, `${res.request} type`);
  return res.body;
}

/** A pending task of `type` on a target with a control plane (skipped elsewhere). */
export async function pendingOf(ctx: ContractContext, type: string, body: Body): Promise<Wire> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  return setupStep(`create a pending ${type} task`, () => createOf(ctx, type, body));
}

/** A task of `type` completed through the control plane with `response`, or a synthesized one. */
export async function completedOf(ctx: ContractContext, type: string, body: Body, response?: unknown): Promise<Wire> {
  const task = await pendingOf(ctx, type, body);
  if (response === undefined) return setupStep(`complete a ${type} task`, () => complete(ctx, task, response));
  return complete(ctx, task, response);
}

async function complete(ctx: ContractContext, task: Wire, response: unknown): Promise<Wire> {
  const res = await ctx.api.post(
    `/_mock/tasks/${task.task_id}/complete`,
    response === undefined ? undefined : { response },
  );
  expectStatus(res, 200);
  expectEqual(res.body.status, 'completed', 'status');
  expectType(res.body.response, 'object', 'response');
  return res.body;
}

/** One rule per key: the task's params hold what was sent (a target dropping one key breaks only that rule). */
export async function expectParamsEcho(ctx: ContractContext, task: Wire, body: Body, keys: readonly string[]) {
  for (const key of keys)
    await ctx.rule(`params.${key} is the value sent`, () =>
      expectEqual(task.params?.[key], body[key], `params.${key}`),
    );
}
