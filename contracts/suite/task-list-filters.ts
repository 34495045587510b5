import { contract, expectEqual, expectErrorBody, expectOneOf, expectStatus, setupStep } from '../kit/contract.js';
import { createCompletedTask, createPendingTask, holdTasksPending } from '../kit/control.js';
import { createTask, expectListed, idsOf, listTasks } from '../kit/tasks.js';

/**
 * GET /v1/tasks filters. Every query also filters by a fresh tag, so the expected set is exact
 * even on an account other runs share.
 */

const DAY_MS = 86_400_000;
const shift = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const dateOf = (iso: string) => iso.slice(0, 10);
/** The same instant written with a +02:00 offset. */
const withPlus2 = (iso: string) => `${shift(iso, 2 * 3_600_000).slice(0, -1)}+02:00`;

contract('GET /v1/tasks?status= filters by status', async (ctx) => {
  await holdTasksPending(ctx);
  const tag = ctx.unique('status');
  const kept = await createPendingTask(ctx, { tags: [tag] });
  const canceled = await createPendingTask(ctx, { tags: [tag] });
  expectStatus(await ctx.api.post(`/v1/task/${canceled.task_id}/cancel`), 200);
  await expectListed(ctx.api, { tags: tag, status: 'canceled' }, [canceled.task_id], 'status=canceled');
  await expectListed(ctx.api, { tags: tag, status: 'pending' }, [kept.task_id], 'status=pending');
  expectEqual((await listTasks(ctx.api, { tags: tag, status: 'completed' })).total, 0, 'total with status=completed');
  // The real service's record has comma lists for customer_review_status only; for status it is labelmock's choice.
  await ctx.rule(
    'status takes a comma list too',
    async () =>
      expectEqual(
        idsOf(await listTasks(ctx.api, { tags: tag, status: 'pending,canceled' })),
        [canceled.task_id, kept.task_id],
        'status=pending,canceled',
      ),
    'labelmock',
  );
});

contract('GET /v1/tasks?type= filters by task type', async (ctx) => {
  const tag = ctx.unique('type');
  const task = await createTask(ctx.api, { tags: [tag] });
  await expectListed(ctx.api, { tags: tag, type: 'imageannotation' }, [task.task_id], 'type=imageannotation');
  expectEqual(
    (await listTasks(ctx.api, { tags: tag, type: 'segmentannotation' })).total,
    0,
    'total with type=segmentannotation',
  );
});

contract('GET /v1/tasks?project= and ?batch= list only the tasks of that project or batch', async (ctx) => {
  const tag = ctx.unique('where');
  const [first, second, batch] = [ctx.unique('listproject'), ctx.unique('listproject'), ctx.unique('listbatch')];
  await setupStep('create two projects and a batch in the first', async () => {
    for (const name of [first, second])
      expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name }), 200);
    expectStatus(await ctx.api.post('/v1/batches', { project: first, name: batch }), 200);
  });
  const inBatch = await createTask(ctx.api, { tags: [tag], batch });
  const inFirst = await createTask(ctx.api, { tags: [tag], project: first });
  const inSecond = await createTask(ctx.api, { tags: [tag], project: second });
  await ctx.rule('project= lists the tasks of that project, its batches included', () =>
    expectListed(ctx.api, { tags: tag, project: first }, [inFirst.task_id, inBatch.task_id], 'project=first'),
  );
  await ctx.rule('project= of the other project lists only its task', () =>
    expectListed(ctx.api, { tags: tag, project: second }, [inSecond.task_id], 'project=second'),
  );
  await ctx.rule('batch= lists only the tasks of that batch', () =>
    expectListed(ctx.api, { tags: tag, batch }, [inBatch.task_id], 'batch='),
  );
});

contract('GET /v1/tasks with repeated unique_id keys lists the tasks holding any of them', async (ctx) => {
  const [a, b, c] = [ctx.unique('uid_a'), ctx.unique('uid_b'), ctx.unique('uid_c')];
  const taskA = await createTask(ctx.api, { unique_id: a });
  const taskB = await createTask(ctx.api, { unique_id: b });
  await createTask(ctx.api, { unique_id: c });
  const list = await listTasks(ctx.api, { unique_id: [a, b] });
  expectEqual(list.total, 2, 'total');
  expectEqual(idsOf(list), [taskB.task_id, taskA.task_id], 'tasks with unique_id a or b');
  await expectListed(ctx.api, { unique_id: a }, [taskA.task_id], 'tasks with unique_id a');
});

contract('GET /v1/tasks with repeated tags keys lists tasks carrying any of them, each once', async (ctx) => {
  const [x, y] = [ctx.unique('tag_x'), ctx.unique('tag_y')];
  const onlyX = await createTask(ctx.api, { tags: [x] });
  const onlyY = await createTask(ctx.api, { tags: [y] });
  const both = await createTask(ctx.api, { tags: [x, y] });
  expectEqual(idsOf(await listTasks(ctx.api, { tags: x })), [both.task_id, onlyX.task_id], 'tags=x');
  const list = await listTasks(ctx.api, { tags: [x, y] });
  expectEqual(idsOf(list), [both.task_id, onlyY.task_id, onlyX.task_id], 'tags=x&tags=y');
  expectEqual(list.total, 3, 'total with tags=x&tags=y (a task with both tags counts once)');
});

contract('GET /v1/tasks?customer_review_status= takes a comma-joined list', async (ctx) => {
  const tag = ctx.unique('review');
  const completed = await createCompletedTask(ctx, { tags: [tag] });
  const status = completed.customer_review_status;
  const all = ['pending', 'accepted', 'fixed', 'rejected'];
  expectOneOf(status, all, 'customer_review_status of a completed task');
  const others = all.filter((s) => s !== status);
  expectEqual(
    idsOf(await listTasks(ctx.api, { tags: tag, customer_review_status: `${others[0]},${status}` })),
    [completed.task_id],
    `customer_review_status=${others[0]},${status}`,
  );
  expectEqual(
    (await listTasks(ctx.api, { tags: tag, customer_review_status: others.join(',') })).total,
    0,
    `total with customer_review_status=${others.join(',')}`,
  );
});

contract('GET /v1/tasks?start_time=&end_time= bound created_at, as datetimes and dates', async (ctx) => {
  const tag = ctx.unique('time');
  const task = await createTask(ctx.api, { tags: [tag] });
  const at = task.created_at as string;
  const cases: [Record<string, string>, boolean][] = [
    [{ start_time: at }, true],
    [{ start_time: shift(at, 1) }, false],
    [{ end_time: at }, true],
    [{ end_time: shift(at, -1) }, false],
    [{ start_time: withPlus2(at), end_time: withPlus2(at) }, true],
    [{ start_time: withPlus2(shift(at, 1)) }, false],
    // No offset means UTC.
    [{ start_time: at.slice(0, -1) }, true],
    [{ start_time: shift(at, 1).slice(0, -1) }, false],
    [{ start_time: dateOf(at), end_time: dateOf(shift(at, DAY_MS)) }, true],
    [{ start_time: dateOf(shift(at, DAY_MS)) }, false],
    [{ end_time: dateOf(shift(at, -DAY_MS)) }, false],
  ];
  for (const [query, found] of cases) {
    await expectListed(
      ctx.api,
      { tags: tag, ...query },
      found ? [task.task_id] : [],
      `tasks created at ${at} with ${JSON.stringify(query)}`,
    );
  }
});

contract('GET /v1/tasks?updated_after=&updated_before= bound updated_at', async (ctx) => {
  const tag = ctx.unique('updated');
  const created = await createTask(ctx.api, { tags: [tag] });
  const res = await ctx.api.post(`/v1/task/${created.task_id}/setMetadata`, { touched: true });
  expectStatus(res, 200);
  const at = res.body.updated_at as string;
  const cases: [Record<string, string>, boolean][] = [
    [{ updated_after: at, updated_before: at }, true],
    [{ updated_after: shift(at, 1) }, false],
    [{ updated_before: shift(at, -1) }, false],
  ];
  for (const [query, found] of cases) {
    await expectListed(
      ctx.api,
      { tags: tag, ...query },
      found ? [created.task_id] : [],
      `task updated at ${at} with ${JSON.stringify(query)}`,
    );
  }
});

contract(
  'GET /v1/tasks?completed_after=&completed_before= bound completed_at and leave out unfinished tasks',
  async (ctx) => {
    const tag = ctx.unique('completed');
    const completed = await createCompletedTask(ctx, { tags: [tag] });
    await holdTasksPending(ctx);
    await createPendingTask(ctx, { tags: [tag] });
    const at = completed.completed_at as string;
    const cases: [Record<string, string>, boolean][] = [
      [{ completed_after: at, completed_before: at }, true],
      [{ completed_after: dateOf(shift(at, -DAY_MS)) }, true],
      [{ completed_after: shift(at, 1) }, false],
      [{ completed_before: shift(at, -1) }, false],
    ];
    for (const [query, found] of cases) {
      await expectListed(
        ctx.api,
        { tags: tag, ...query },
        found ? [completed.task_id] : [],
        `task completed at ${at} with ${JSON.stringify(query)}`,
      );
    }
  },
);

contract('GET /v1/tasks with an invalid filter value answers 400 naming the filter', async (ctx) => {
  const invalid: [string, string][] = [
    ['status', 'finished'],
    ['customer_review_status', 'accepted,great'],
    ['start_time', 'yesterday'],
    ['end_time', '2026-13-45'],
  ];
  for (const [key, value] of invalid)
    await ctx.rule(`${key}=${value} answers 400 naming ${key}`, async () =>
      expectErrorBody(await ctx.api.get('/v1/tasks', { query: { [key]: value } }), 400, key),
    );
});
