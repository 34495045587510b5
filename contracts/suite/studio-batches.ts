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
import { path, studioWithLabelers } from '../kit/studio.js';
import { createTask, getTask } from '../kit/tasks.js';

/** Studio batches: priority order, group assignment and sending unfinished tasks to completed. */

async function studioBatches(ctx: ContractContext, count: number) {
  const { project, emails } = await studioWithLabelers(ctx, 1);
  const batches: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = ctx.unique('sbatch');
    expectStatus(await ctx.api.post('/v1/batches', { project, name }), 200);
    batches.push(name);
  }
  return { project, emails, batches };
}

const namesOf = (list: { name: string }[]) => list.map((b) => b.name);
/** The order of `mine` within a list that may hold other runs' batches too. */
const orderOf = (list: { name: string }[], mine: string[]) => namesOf(list).filter((n) => mine.includes(n));

contract(
  'GET /v1/studio/batches lists pending Studio batches with their fields, older first by default',
  async (ctx) => {
    await ctx.needControlPlane();
    const { project, batches } = await studioBatches(ctx, 2);
    const res = await ctx.api.get('/v1/studio/batches');
    expectStatus(res, 200);
    await ctx.rule('the batches are listed older first', () =>
      expectEqual(orderOf(res.body, batches), batches, 'order of the new batches'),
    );
    await ctx.rule('a listed batch has its fields', () => {
      const first = present(
        res.body.find((b: { name: string }) => b.name === batches[0]),
        'the first batch in the list',
      );
      expectEqual(first.projectName, project, 'projectName');
      const fields: Record<string, unknown> = first;
      for (const key of ['id', 'projectId', 'batchType'])
        expectTrue(typeof fields[key] === 'string', `${key} is a string`);
      for (const key of ['studioPriority', 'total', 'completed'])
        expectTrue(typeof fields[key] === 'number', `${key} is a number`);
      expectEqual(first.groups, [], 'groups');
    });
  },
);

contract(
  'POST /v1/studio/batches/set_priorities reorders every pending batch; reset_priorities restores creation order',
  async (ctx) => {
    await ctx.needControlPlane();
    const { batches } = await studioBatches(ctx, 2);
    const listed = (await ctx.api.get('/v1/studio/batches')).body;
    const reordered = [...batches].reverse().concat(namesOf(listed).filter((n) => !batches.includes(n)));
    const set = await ctx.api.post('/v1/studio/batches/set_priorities', {
      batches: reordered.map((name) => ({ name })),
    });
    await ctx.rule('set_priorities answers the new order', () => {
      expectStatus(set, 200);
      expectEqual(orderOf(set.body, batches), [...batches].reverse(), 'order after set_priorities');
    });
    await ctx.rule('reset_priorities restores creation order', async () => {
      const reset = await ctx.api.post('/v1/studio/batches/reset_priorities');
      expectStatus(reset, 200);
      expectEqual(orderOf(reset.body, batches), batches, 'order after reset_priorities');
    });
  },
);

contract(
  'POST /v1/studio/batches/set_priorities without every pending batch answers 400; an unknown one 404',
  async (ctx) => {
    await ctx.needControlPlane();
    const { batches } = await studioBatches(ctx, 2);
    // Other runs sharing the account may hold pending batches too: the message names the rule, not every batch.
    await ctx.rule('a list missing a pending batch answers 400 naming batches', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/studio/batches/set_priorities', { batches: [{ name: batches[1] }] }),
        400,
        'batches',
      ),
    );
    await ctx.rule('an unknown batch answers 404', async () =>
      expectErrorBody(
        await ctx.api.post('/v1/studio/batches/set_priorities', { batches: [{ name: ctx.unique('absent') }] }),
        404,
      ),
    );
  },
);

contract(
  'PUT /v1/studio/batches/{batch} sets groups, an e-mail standing for one member; an unknown group is 404',
  async (ctx) => {
    await ctx.needControlPlane();
    const { project, emails, batches } = await studioBatches(ctx, 1);
    const batch = present(batches[0], 'the studio batch');
    const email = present(emails[0], 'the first labeler');
    const group = ctx.unique('group');
    expectStatus(await ctx.api.post(path('/v1/studio/projects', project, '/groups'), { name: group, emails }), 200);
    const res = await ctx.api.put(path('/v1/studio/batches', batch), { groups: [group, email] });
    await ctx.rule('PUT answers the batch with its groups', () => {
      expectStatus(res, 200);
      expectEqual(res.body.name, batch, 'batch name');
      expectEqual(res.body.groups, [group, email], 'groups');
    });
    await ctx.rule('an unknown group answers 404', async () =>
      expectErrorBody(await ctx.api.put(path('/v1/studio/batches', batch), { groups: [ctx.unique('absent')] }), 404),
    );
    await ctx.rule('an unknown batch answers 404', async () =>
      expectErrorBody(await ctx.api.put(path('/v1/studio/batches', ctx.unique('absent')), { groups: [group] }), 404),
    );
  },
);

contract(
  "POST /v1/studio/projects/{name}/send_tasks_to_completed completes the listed batches' pending tasks",
  async (ctx) => {
    await ctx.needControlPlane();
    await holdTasksPending(ctx);
    const { project, batches } = await studioBatches(ctx, 2);
    const sent = await createTask(ctx.api, { project, batch: batches[0], geometries: undefined });
    const kept = await createTask(ctx.api, { project, batch: batches[1], geometries: undefined });
    const res = await ctx.api.post(path('/v1/studio/projects', project, '/send_tasks_to_completed'), {
      batches: [batches[0]],
    });
    await ctx.rule("a listed batch's pending task is completed", () => {
      expectStatus(res, 200);
      return eventually(async () =>
        expectEqual((await getTask(ctx.api, sent.task_id)).status, 'completed', 'status of the sent task'),
      );
    });
    await ctx.rule('a task of a batch not listed stays pending', async () =>
      expectEqual((await getTask(ctx.api, kept.task_id)).status, 'pending', 'status of the task in the other batch'),
    );
    await ctx.rule('neither batches nor all_batches answers 400 naming batches', async () =>
      expectErrorBody(
        await ctx.api.post(path('/v1/studio/projects', project, '/send_tasks_to_completed'), {}),
        400,
        'batches',
      ),
    );
    await ctx.rule('an unknown project answers 404', async () =>
      expectErrorBody(
        await ctx.api.post(path('/v1/studio/projects', ctx.unique('absent'), '/send_tasks_to_completed'), {
          all_batches: true,
        }),
        404,
      ),
    );
  },
);
