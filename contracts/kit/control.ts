import type { AnswerOf, Task } from './answers.js';
import type { ContractContext } from './contract.js';
import { eventually } from './eventually.js';
import { expectEqual, expectStatus, setupStep } from './expect.js';
import type { Client } from './target.js';
import { createTask, getTask } from './tasks.js';

/** Helpers over the /_mock control plane. Callers check `needControlPlane` or `hasControlPlane` first. */

export interface Completion {
  mode: 'manual' | 'immediate' | 'delay' | 'reads';
  delay_ms?: number;
  /** Mode reads: the read that finds the task completed. */
  reads?: number;
}

/** Sets the tenant's completion mode for this contract only: the previous setting is restored afterwards. */
export function useCompletion(ctx: ContractContext, client: Client, completion: Completion): Promise<void> {
  return setupStep(`set completion mode ${completion.mode}`, () => setCompletion(ctx, client, completion));
}

async function setCompletion(ctx: ContractContext, client: Client, completion: Completion): Promise<void> {
  const before = await client.get('/_mock/settings');
  expectStatus(before, 200);
  const previous = before.body.completion;
  ctx.defer(async () => {
    const restored = await client.patch('/_mock/settings', { completion: previous });
    expectStatus(restored, 200);
    expectEqual(restored.body.completion, previous, 'restored completion setting');
  });
  const res = await client.patch('/_mock/settings', { completion });
  expectStatus(res, 200);
  expectEqual(res.body.completion.mode, completion.mode, `${res.request} completion.mode`);
}

/**
 * For contracts that need tasks to stay pending: manual completion where a control plane exists
 * (a server started with --completion immediate would otherwise finish them at once).
 */
export async function holdTasksPending(ctx: ContractContext, client: Client = ctx.api): Promise<void> {
  if (await ctx.hasControlPlane()) await useCompletion(ctx, client, { mode: 'manual' });
}

/** A task that is still pending; skips on a target that finishes tasks by itself and has no way to stop it. */
export async function createPendingTask(
  ctx: ContractContext,
  overrides: Record<string, unknown> = {},
  client: Client = ctx.api,
): Promise<Task> {
  const task = await createTask(client, overrides);
  if (!(await ctx.hasControlPlane()) && (await getTask(client, task.task_id)).status !== 'pending') {
    ctx.skip('target completed the test task by itself and has no control plane to hold it pending');
  }
  return task;
}

/** A completed task: forced through the control plane, or awaited where test tasks complete by themselves. */
export async function createCompletedTask(
  ctx: ContractContext,
  overrides: Record<string, unknown> = {},
): Promise<Task> {
  if (await ctx.hasControlPlane()) {
    await holdTasksPending(ctx);
    const task = await createTask(ctx.api, overrides);
    return setupStep('complete the task through POST /_mock/tasks/{id}/complete', async () => {
      const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`);
      expectStatus(res, 200);
      return res.body;
    });
  }
  const task = await createTask(ctx.api, overrides);
  return awaitSelfCompletion(ctx, task.task_id, 'test task');
}

/** On a target without a control plane: wait for a task to complete by itself (test mode), or skip. */
export async function awaitSelfCompletion(ctx: ContractContext, taskId: string, what: string): Promise<Task> {
  try {
    return await eventually(async () => {
      const current = await getTask(ctx.api, taskId);
      expectEqual(current.status, 'completed', 'status');
      return current;
    });
  } catch {
    return ctx.skip(`target has no control plane and did not complete the ${what} by itself`);
  }
}

export async function readClockMs(client: Client): Promise<number> {
  const res = await client.get('/_mock/clock');
  expectStatus(res, 200);
  return Date.parse(res.body.now);
}

export async function advanceClock(client: Client, ms: number): Promise<AnswerOf<'post', '/_mock/clock/advance'>> {
  const res = await client.post('/_mock/clock/advance', { ms });
  expectStatus(res, 200);
  return res.body;
}
