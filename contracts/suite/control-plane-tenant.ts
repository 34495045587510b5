import { randomUUID } from 'node:crypto';
import {
  asObject,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
} from '../kit/contract.js';
import { advanceClock, useCompletion } from '../kit/control.js';
import { createTask, getTask, ISO_MS, imageTaskBody, listTasks } from '../kit/tasks.js';

/** Control-plane tenant behaviour: clock, completion settings, reset, state export and import. */

contract('POST /_mock/clock/advance moves the clock that timestamps tasks', async (ctx) => {
  await ctx.needControlPlane();
  const read = await ctx.api.get('/_mock/clock');
  expectStatus(read, 200);
  expectMatch(read.body.now, ISO_MS, 'clock now');
  const before = Date.parse(read.body.now);
  const advanced = await advanceClock(ctx.api, 5000);
  const after = Date.parse(advanced.now);
  // Real time passes too, so the move is at least the amount and not wildly more.
  expectTrue(
    after - before >= 5000 && after - before < 5000 + 60_000,
    `clock moved by ${after - before} ms for an advance of 5000`,
  );
  const task = await createTask(ctx.api);
  expectTrue(
    Date.parse(task.created_at) >= after,
    `created_at ${task.created_at} is before the advanced clock ${advanced.now}`,
  );
  expectErrorBody(await ctx.api.post('/_mock/clock/advance', { ms: -1 }), 400, 'ms');
});

contract('PATCH /_mock/settings completion immediate completes a new task right after creation', async (ctx) => {
  await ctx.needControlPlane();
  await useCompletion(ctx, ctx.api, { mode: 'immediate' });
  const res = await ctx.api.post('/v1/task/imageannotation', imageTaskBody());
  expectStatus(res, 200);
  // The creation response still shows the task as it was created; completion follows at once.
  expectEqual(res.body.status, 'pending', 'status in the creation response');
  const done = await eventually(async () => {
    const task = await getTask(ctx.api, res.body.task_id);
    expectEqual(task.status, 'completed', 'status read back');
    return task;
  });
  expectTrue(Array.isArray(done.response?.annotations), 'a completed task carries response.annotations');
});

contract('PATCH /_mock/settings completion delay completes a task once the clock passes delay_ms', async (ctx) => {
  await ctx.needControlPlane();
  await useCompletion(ctx, ctx.api, { mode: 'delay', delay_ms: 60_000 });
  const task = await createTask(ctx.api);
  await advanceClock(ctx.api, 30_000);
  expectEqual((await getTask(ctx.api, task.task_id)).status, 'pending', 'status halfway through the delay');
  await advanceClock(ctx.api, 30_000);
  await eventually(async () =>
    expectEqual((await getTask(ctx.api, task.task_id)).status, 'completed', 'status after the delay'),
  );
});

contract('PATCH /_mock/settings with an unknown completion mode answers 400 and changes nothing', async (ctx) => {
  await ctx.needControlPlane();
  const before = await ctx.api.get('/_mock/settings');
  expectStatus(before, 200);
  expectErrorBody(await ctx.api.patch('/_mock/settings', { completion: { mode: 'sometimes' } }), 400, 'mode');
  expectEqual((await ctx.api.get('/_mock/settings')).body, before.body, 'settings after the refused change');
});

contract("POST /_mock/reset empties the caller's tenant and no other", async (ctx) => {
  // Reset wipes the caller's tenant, so it runs on the second key's tenant, never the main one.
  const other = ctx.other();
  await ctx.needControlPlane();
  const mine = await createTask(ctx.api);
  const key = randomUUID();
  const body = imageTaskBody();
  const theirs = await other.post('/v1/task/imageannotation', body, { headers: { 'Idempotency-Key': key } });
  expectStatus(theirs, 200);
  const res = await other.post('/_mock/reset');
  expectStatus(res, 200);
  expectEqual(res.body, { result: 'success' }, 'reset response');
  const list = await listTasks(other, {});
  expectEqual([list.total, list.docs.length], [0, 0], 'total and docs after reset');
  expectStatus(await other.get(`/v1/task/${theirs.body.task_id}`), 404);
  expectEqual(
    (await getTask(ctx.api, mine.task_id)).task_id,
    mine.task_id,
    "the main tenant's task after the other's reset",
  );
  // The tenant's Idempotency-Keys go too: replaying a task that no longer exists would mislead.
  const again = await other.post('/v1/task/imageannotation', body, { headers: { 'Idempotency-Key': key } });
  expectStatus(again, 200);
  expectEqual((await listTasks(other, {})).total, 1, 'tasks after re-sending the Idempotency-Key');
  expectStatus(await other.get(`/v1/task/${again.body.task_id}`), 200);
});

contract('GET /_mock/state exported and PUT into another tenant reproduces the tasks', async (ctx) => {
  const other = ctx.other();
  await ctx.needControlPlane();
  const mine = await createTask(ctx.api, { tags: [ctx.unique('state')], metadata: { seed: true } });
  const replaced = await createTask(other);
  if (replaced.is_test !== mine.is_test)
    ctx.skip('otherApiKey is of another mode than apiKey; state cannot move between them');
  const exported = await ctx.api.get('/_mock/state');
  expectStatus(exported, 200);
  const imported = await other.put('/_mock/state', exported.body);
  expectStatus(imported, 200);
  const byId = (tasks: { task: { task_id: string } }[]) =>
    [...tasks].sort((a, b) => a.task.task_id.localeCompare(b.task.task_id));
  const reread = await other.get('/_mock/state');
  expectStatus(reread, 200);
  expectEqual(byId(reread.body.tasks), byId(exported.body.tasks), 'tasks of the importing tenant');
  expectEqual(
    await getTask(other, mine.task_id),
    await getTask(ctx.api, mine.task_id),
    'the exported task read by the importing tenant',
  );
  // Import replaces the whole state: the importing tenant's own task is gone.
  expectStatus(await other.get(`/v1/task/${replaced.task_id}`), 404);
});

contract('PUT /_mock/state with a malformed state answers 400 and keeps the tenant', async (ctx) => {
  await ctx.needControlPlane();
  const task = await createTask(ctx.api);
  expectErrorBody(await ctx.api.put('/_mock/state', { format: 'something-else', tasks: 'none' }), 400);
  expectEqual((await getTask(ctx.api, task.task_id)).task_id, task.task_id, 'task after the refused import');
});

contract('GET /_mock/openapi.json answers an OpenAPI 3.1.0 document of the control plane', async (ctx) => {
  await ctx.needControlPlane();
  const res = await ctx.api.get('/_mock/openapi.json');
  expectStatus(res, 200);
  const document = asObject(res.body, res.request);
  expectEqual(document.openapi, '3.1.0', 'openapi');
  expectTrue(
    Object.keys(asObject(document.paths, `${res.request} paths`)).some((p) => p.startsWith('/_mock/')),
    'paths must document /_mock routes',
  );
});
