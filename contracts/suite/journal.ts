import { asObject, contract, expectEqual, expectNoKey, expectStatus, expectTrue } from '../kit/contract.js';
import { expectRequestReceived, journaledRequests, latestRequestId } from '../kit/journal.js';
import { createTask, imageTaskBody, randomTaskId } from '../kit/tasks.js';

/** The request journal (GET/DELETE /_mock/requests): what the implementation received. */

contract('GET /_mock/requests journals a task creation with its body, status and answer', async (ctx) => {
  await ctx.needControlPlane();
  // The tenant then holds a task: labelmock journals only tenants that hold something.
  await createTask(ctx.api);
  const since = await latestRequestId(ctx.api);
  const marker = ctx.unique('journal');
  const task = await createTask(ctx.api, { metadata: { marker } });
  const entry = await expectRequestReceived(
    ctx.api,
    { method: 'POST', path: '/v1/task/imageannotation', body: { metadata: { marker } } },
    since,
  );
  await ctx.rule('the entry has the status and the answer', () => {
    expectEqual(entry.status, 200, 'journaled status');
    expectEqual(
      asObject(entry.response_body, 'response_body').task_id,
      task.task_id,
      'journaled response_body.task_id',
    );
    expectEqual(asObject(entry.body, 'body').instruction, imageTaskBody().instruction, 'journaled body.instruction');
  });
  await ctx.rule('the entry keeps no Authorization header', () =>
    expectNoKey(entry.headers, 'authorization', 'journaled headers'),
  );
});

contract('GET /_mock/requests filters by method, path glob, status and since, newest first', async (ctx) => {
  await ctx.needControlPlane();
  const task = await createTask(ctx.api);
  const since = await latestRequestId(ctx.api);
  const missing = randomTaskId();
  expectStatus(await ctx.api.get(`/v1/task/${missing}`), 404);
  expectStatus(await ctx.api.get(`/v1/task/${task.task_id}`), 200);
  const both = await journaledRequests(ctx.api, { method: 'GET', path: '/v1/task/*', since });
  await ctx.rule('newest first', () =>
    expectEqual(
      both.map((entry) => entry.path),
      [`/v1/task/${task.task_id}`, `/v1/task/${missing}`],
      'paths journaled since',
    ),
  );
  const notFound = await journaledRequests(ctx.api, { status: 404, since });
  await ctx.rule('status filter', () =>
    expectEqual(
      notFound.map((entry) => entry.path),
      [`/v1/task/${missing}`],
      'paths of 404s',
    ),
  );
  const none = await journaledRequests(ctx.api, { method: 'DELETE', since });
  await ctx.rule('method filter', () => expectEqual(none, [], 'DELETE requests since'));
});

contract('DELETE /_mock/requests empties the journal of the key', async (ctx) => {
  await ctx.needControlPlane();
  await createTask(ctx.api);
  const cleared = await ctx.api.delete('/_mock/requests');
  expectStatus(cleared, 200);
  expectTrue(Number.isInteger(cleared.body?.deleted), `${cleared.request} answers {deleted: N}`);
  expectEqual(await journaledRequests(ctx.api), [], 'journal after DELETE');
});
