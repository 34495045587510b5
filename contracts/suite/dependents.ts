import type { Task } from '../kit/answers.js';
import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectTrue,
  present,
} from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { createTask, getTask, TASK_ID } from '../kit/tasks.js';

/**
 * Dependent tasks: definitions set on a pending root are created when it completes, or, with
 * require_audit, once it is accepted (or fixed); force_creation skips that wait. The root's
 * `dependents` lists the ids; each dependent works on the root's data item.
 */

const DEF = {
  type: 'imageannotation',
  instruction: 'Mark every wheel.',
  geometries: { point: { objects_to_annotate: ['wheel'] } },
};

async function rootWithOptions(ctx: ContractContext, options: Record<string, unknown>): Promise<Task> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const root = await createTask(ctx.api);
  const res = await ctx.api.post(`/v1/task/${root.task_id}/dependents/options`, options);
  expectStatus(res, 200);
  expectEqual(res.body.status, 'pending', 'root status after dependents/options');
  return root;
}

async function complete(ctx: ContractContext, taskId: string): Promise<Task> {
  const res = await ctx.api.post(`/_mock/tasks/${taskId}/complete`);
  expectStatus(res, 200);
  return res.body;
}

/** No dependents yet: the key is absent or an empty list. */
function expectNoDependents(task: Task, what: string): void {
  expectTrue(
    task.dependents === undefined || (Array.isArray(task.dependents) && task.dependents.length === 0),
    `${what}: expected no dependents yet, got ${JSON.stringify(task.dependents)}`,
  );
}

/** Polls the root until it lists `count` dependent ids (creation may follow the completion a moment later). */
function dependentIdsEventually(ctx: ContractContext, rootId: string, count: number): Promise<string[]> {
  return eventually(async () => {
    const task = await getTask(ctx.api, rootId);
    expectTrue(
      Array.isArray(task.dependents) && task.dependents.length === count,
      `root dependents: expected ${count} ids, got ${JSON.stringify(task.dependents)}`,
    );
    return task.dependents;
  });
}

/** The root's dependents once it lists `count`, each checked to be a pending task on the root's attachment. */
async function dependentsEventually(ctx: ContractContext, root: Task, count: number): Promise<Task[]> {
  const ids = await dependentIdsEventually(ctx, root.task_id, count);
  const dependents = [];
  for (const [i, id] of ids.entries()) {
    expectTrue(
      typeof id === 'string' && TASK_ID.test(id),
      `root dependents[${i}]: expected a task id, got ${JSON.stringify(id)}`,
    );
    const dependent = await getTask(ctx.api, id);
    expectEqual([dependent.type, dependent.status], [DEF.type, 'pending'], `dependent ${id} [type, status]`);
    expectEqual(
      dependent.params.attachment,
      root.params.attachment,
      `dependent ${id} params.attachment (inherited from the root)`,
    );
    dependents.push(dependent);
  }
  return dependents;
}

contract(
  'POST /v1/task/{id}/dependents/options on a pending root: completion creates the dependents on the root attachment',
  async (ctx) => {
    const root = await rootWithOptions(ctx, { defs: [DEF, { ...DEF, instruction: 'Second pass over the wheels.' }] });
    await ctx.rule('a pending root has no dependents yet', async () =>
      expectNoDependents(await getTask(ctx.api, root.task_id), 'root before completion'),
    );
    await complete(ctx, root.task_id);
    await ctx.rule(
      'completion creates one new pending task per def, in defs order, on the root attachment',
      async () => {
        const dependents = await dependentsEventually(ctx, root, 2);
        expectEqual(
          dependents.map((d) => d.instruction),
          [DEF.instruction, 'Second pass over the wheels.'],
          'dependent instructions, in defs order',
        );
        expectTrue(!dependents.some((d) => d.task_id === root.task_id), 'dependents are new tasks, not the root');
      },
    );
  },
);

contract(
  'POST /v1/task/{id}/dependents/options with require_audit: dependents wait for an accepting audit',
  async (ctx) => {
    const root = await rootWithOptions(ctx, { defs: [DEF], require_audit: true });
    const done = await complete(ctx, root.task_id);
    await ctx.rule('completion alone creates no dependents', () =>
      expectNoDependents(done, 'root completed, not yet audited'),
    );
    expectStatus(
      await ctx.api.post(`/v1/task/${root.task_id}/audit`, { accepted: false, comments: 'redo the boxes' }),
      200,
    );
    await ctx.rule('a rejecting audit creates no dependents', async () =>
      expectNoDependents(await getTask(ctx.api, root.task_id), 'root after a rejecting audit'),
    );
    expectStatus(await ctx.api.post(`/v1/task/${root.task_id}/audit`, { accepted: true }), 200);
    await ctx.rule('an accepting audit creates the dependents', () => dependentsEventually(ctx, root, 1));
  },
);

contract('a reviewer fix releases dependents that wait for an audit', async (ctx) => {
  const root = await rootWithOptions(ctx, { defs: [DEF], require_audit: true });
  await complete(ctx, root.task_id);
  await ctx.rule('completion alone creates no dependents', async () =>
    expectNoDependents(await getTask(ctx.api, root.task_id), 'root completed, not yet audited'),
  );
  expectStatus(await ctx.api.post(`/_mock/tasks/${root.task_id}/audit`, { result: 'fixed' }), 200);
  await ctx.rule('the fix creates the dependents', () => dependentsEventually(ctx, root, 1));
});

contract(
  'POST /v1/task/{id}/dependents/force_creation creates dependents without the audit; ' +
    '400 (never 409) when unfinished or already created',
  async (ctx) => {
    const root = await rootWithOptions(ctx, { defs: [DEF], require_audit: true });
    // The official Python client crashes on a 409 from a body-less task route: refusals here are 400.
    await ctx.rule('force_creation on an unfinished root answers 400', async () =>
      expectErrorBody(await ctx.api.post(`/v1/task/${root.task_id}/dependents/force_creation`), 400),
    );
    await complete(ctx, root.task_id);
    const forced = await ctx.api.post(`/v1/task/${root.task_id}/dependents/force_creation`);
    expectStatus(forced, 200);
    const dependent = present((await dependentsEventually(ctx, root, 1))[0], 'the dependent');
    await ctx.rule('a second force_creation answers 400', async () =>
      expectErrorBody(await ctx.api.post(`/v1/task/${root.task_id}/dependents/force_creation`), 400),
    );
    // A later accepting audit makes no second set.
    await ctx.rule('a later accepting audit makes no second set', async () => {
      expectStatus(await ctx.api.post(`/v1/task/${root.task_id}/audit`, { accepted: true }), 200);
      expectEqual(
        (await getTask(ctx.api, root.task_id)).dependents,
        [dependent.task_id],
        'root dependents after the audit',
      );
    });
  },
);

contract('POST /v1/task/{id}/dependents/options on a finished root answers 400', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const root = await createTask(ctx.api);
  await complete(ctx, root.task_id);
  await ctx.rule('options on a completed root answer 400', async () =>
    expectErrorBody(await ctx.api.post(`/v1/task/${root.task_id}/dependents/options`, { defs: [DEF] }), 400),
  );
  const canceled = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/v1/task/${canceled.task_id}/cancel`), 200);
  await ctx.rule('options on a canceled root answer 400', async () =>
    expectErrorBody(await ctx.api.post(`/v1/task/${canceled.task_id}/dependents/options`, { defs: [DEF] }), 400),
  );
  await ctx.rule('the refused options create no dependents', async () =>
    expectNoDependents(await getTask(ctx.api, root.task_id), 'finished root after the refused options'),
  );
});

// The interface's rule without labelmock's status: options change only while the root is unfinished.
contract(
  'POST /v1/task/{id}/dependents/options is refused with a 4xx once the root is completed or canceled',
  async (ctx) => {
    await ctx.needControlPlane();
    await holdTasksPending(ctx);
    const fourXx = (res: { status: number; request: string; text: string }) =>
      expectTrue(
        res.status >= 400 && res.status < 500,
        `${res.request}: expected a 4xx, got ${res.status} ${res.text}`,
      );
    const root = await createTask(ctx.api);
    await complete(ctx, root.task_id);
    await ctx.rule('options on a completed root are refused', async () =>
      fourXx(await ctx.api.post(`/v1/task/${root.task_id}/dependents/options`, { defs: [DEF] })),
    );
    const canceled = await createTask(ctx.api);
    expectStatus(await ctx.api.post(`/v1/task/${canceled.task_id}/cancel`), 200);
    await ctx.rule('options on a canceled root are refused', async () =>
      fourXx(await ctx.api.post(`/v1/task/${canceled.task_id}/dependents/options`, { defs: [DEF] })),
    );
  },
);

contract('POST /v1/task/{id}/dependents/options with an invalid def answers 400 naming defs[0]', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const root = await createTask(ctx.api);
  for (const [what, def] of [
    ['no geometries', { ...DEF, geometries: {} }],
    ['an unknown type', { ...DEF, type: 'no_such_task_type' }],
  ] as const) {
    await ctx.rule(`a def with ${what} answers 400 naming defs[0]`, async () =>
      expectErrorBody(
        await ctx.api.post(`/v1/task/${root.task_id}/dependents/options`, { defs: [def] }),
        400,
        'defs[0]',
      ),
    );
  }
  // Nothing was stored: completing the root creates no dependents.
  await complete(ctx, root.task_id);
  await ctx.rule('refused options are not stored: completion creates no dependents', async () =>
    expectNoDependents(await getTask(ctx.api, root.task_id), 'root completed after refused options'),
  );
});

contract('a dependent whose definition names its own attachment keeps that attachment', async (ctx) => {
  const attachment = `https://example.com/contracts/${ctx.unique('own')}.jpg`;
  const root = await rootWithOptions(ctx, { defs: [{ ...DEF, attachment }] });
  await complete(ctx, root.task_id);
  const id = present((await dependentIdsEventually(ctx, root.task_id, 1))[0], 'the dependent task id');
  expectEqual(
    (await getTask(ctx.api, id)).params.attachment,
    attachment,
    'dependent params.attachment (its own, not the root one)',
  );
});
