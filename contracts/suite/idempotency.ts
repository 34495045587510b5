import { randomUUID } from 'node:crypto';
import {
  contract,
  expectConflictNaming,
  expectEqual,
  expectErrorBody,
  expectNotEqual,
  expectStatus,
} from '../kit/contract.js';
import { advanceClock, holdTasksPending } from '../kit/control.js';
import type { Client } from '../kit/target.js';
import { createTask, idsOf, imageTaskBody, listTasks } from '../kit/tasks.js';

/**
 * Idempotency-Key on task creation: the first response, error or not, is stored and replayed for
 * a matching request; other parameters or another user with the same key is a 409; stored
 * responses expire after one day. Keys are fresh v4 UUIDs, as the interface recommends.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

const createWithKey = (client: Client, key: string, body: Record<string, unknown>) =>
  client.post('/v1/task/imageannotation', body, { headers: { 'Idempotency-Key': key } });

contract(
  'POST /v1/task/imageannotation with a repeated Idempotency-Key and body replays the first task',
  async (ctx) => {
    await holdTasksPending(ctx);
    const key = randomUUID();
    const tag = ctx.unique('idem');
    const body = imageTaskBody({ tags: [tag] });
    const first = await createWithKey(ctx.api, key, body);
    expectStatus(first, 200);
    const second = await createWithKey(ctx.api, key, body);
    await ctx.rule('the repeated request answers the first response', () => {
      expectStatus(second, 200);
      expectEqual(second.body, first.body, 'replayed response');
    });
    // No second task: the tag finds only the first one.
    await ctx.rule('the repeated request creates no second task', async () => {
      const list = await listTasks(ctx.api, { tags: tag });
      expectEqual(list.total, 1, 'tasks created by two requests with one Idempotency-Key');
      expectEqual(idsOf(list), [first.body.task_id], 'task ids');
    });
  },
);

contract(
  'POST /v1/task/imageannotation replays for the same parameters in another key order and formatting',
  async (ctx) => {
    const key = randomUUID();
    const tag = ctx.unique('idem');
    const body = imageTaskBody({ tags: [tag], metadata: { a: 1, b: 2 } });
    const first = await createWithKey(ctx.api, key, body);
    expectStatus(first, 200);
    const reordered = Object.fromEntries(Object.entries({ ...body, metadata: { b: 2, a: 1 } }).reverse());
    const second = await ctx.api.post('/v1/task/imageannotation', undefined, {
      rawBody: JSON.stringify(reordered, null, 2),
      headers: { 'Idempotency-Key': key },
    });
    await ctx.rule('the reordered request replays the first task', () => {
      expectStatus(second, 200);
      expectEqual(second.body.task_id, first.body.task_id, 'task_id of the replay');
    });
    await ctx.rule('the reordered request creates no second task', async () =>
      expectEqual((await listTasks(ctx.api, { tags: tag })).total, 1, 'tasks created'),
    );
  },
);

contract('POST /v1/task/imageannotation with a repeated Idempotency-Key and another body answers 409', async (ctx) => {
  const key = randomUUID();
  const tag = ctx.unique('idem');
  expectStatus(await createWithKey(ctx.api, key, imageTaskBody({ tags: [tag] })), 200);
  // imageTaskBody draws a fresh attachment URL, so the second body differs from the first.
  await ctx.rule('the same key with another body answers 409', async () =>
    expectErrorBody(await createWithKey(ctx.api, key, imageTaskBody({ tags: [tag] })), 409),
  );
  await ctx.rule('the refused request creates no task', async () =>
    expectEqual((await listTasks(ctx.api, { tags: tag })).total, 1, 'tasks created'),
  );
});

contract('POST /v1/task/imageannotation with an Idempotency-Key another user stored answers 409', async (ctx) => {
  const other = ctx.other();
  const key = randomUUID();
  const body = imageTaskBody({ tags: [ctx.unique('idem')] });
  expectStatus(await createWithKey(ctx.api, key, body), 200);
  await ctx.rule("another user's request with the key answers 409", async () =>
    expectErrorBody(await createWithKey(other, key, body), 409),
  );
  await ctx.rule("the refused request creates no task in the other user's tenant", async () =>
    expectEqual(
      (await listTasks(other, { tags: body.tags as string[] })).total,
      0,
      "tasks created in the other user's tenant",
    ),
  );
});

contract('POST /v1/task/imageannotation replays a stored 400 for a repeated Idempotency-Key', async (ctx) => {
  const key = randomUUID();
  const body = imageTaskBody({ priority: 15 });
  const first = await createWithKey(ctx.api, key, body);
  expectErrorBody(first, 400, 'priority');
  const second = await createWithKey(ctx.api, key, body);
  expectErrorBody(second, 400);
  expectEqual(second.body, first.body, 'replayed error body');
});

contract('POST /v1/task/imageannotation replays a stored 409 even after the conflict is gone', async (ctx) => {
  const uniqueId = ctx.unique('uid');
  const holder = await createTask(ctx.api, { unique_id: uniqueId });
  const key = randomUUID();
  const body = imageTaskBody({ unique_id: uniqueId });
  expectConflictNaming(await createWithKey(ctx.api, key, body), holder.task_id);
  expectStatus(await ctx.api.delete(`/v1/task/${holder.task_id}/unique_id`), 200);
  // A fresh request would now succeed; the stored response is replayed instead.
  await ctx.rule('the repeated request replays the stored 409', async () =>
    expectConflictNaming(await createWithKey(ctx.api, key, body), holder.task_id),
  );
  await ctx.rule('the repeated request creates no task', async () =>
    expectEqual((await listTasks(ctx.api, { unique_id: uniqueId })).total, 0, 'tasks holding the unique_id'),
  );
});

contract(
  'POST /v1/task/imageannotation with Idempotency-Key and unique_id replays instead of answering 409',
  async (ctx) => {
    const key = randomUUID();
    const body = imageTaskBody({ unique_id: ctx.unique('uid') });
    const first = await createWithKey(ctx.api, key, body);
    expectStatus(first, 200);
    const second = await createWithKey(ctx.api, key, body);
    expectStatus(second, 200);
    expectEqual(second.body.task_id, first.body.task_id, 'task_id of the replay');
  },
);

contract('POST /v1/task/imageannotation with one Idempotency-Key sent twice at once creates one task', async (ctx) => {
  const key = randomUUID();
  const tag = ctx.unique('idem');
  const body = imageTaskBody({ tags: [tag] });
  const results = await Promise.all([createWithKey(ctx.api, key, body), createWithKey(ctx.api, key, body)]);
  // The loser either sees the winner's stored response or a 429 (in flight; retrying is fine).
  await ctx.rule('each request answers 200 or a 429 with the error body', () => {
    for (const res of results) {
      if (res.status === 429) expectErrorBody(res, 429);
      else expectStatus(res, 200);
    }
  });
  await ctx.rule('the 200 answers name one task', () => {
    const ids = new Set(results.filter((res) => res.status === 200).map((res) => res.body.task_id));
    expectEqual(ids.size, 1, 'distinct task ids answered');
  });
  await ctx.rule('one task is created', async () =>
    expectEqual((await listTasks(ctx.api, { tags: tag })).total, 1, 'tasks created'),
  );
});

contract('POST /v1/task/imageannotation forgets an Idempotency-Key one day later', async (ctx) => {
  await ctx.needControlPlane();
  const key = randomUUID();
  const tag = ctx.unique('idem');
  const body = imageTaskBody({ tags: [tag] });
  const first = await createWithKey(ctx.api, key, body);
  expectStatus(first, 200);
  await advanceClock(ctx.api, DAY_MS - 60_000);
  const withinDay = await createWithKey(ctx.api, key, body);
  await ctx.rule('the key is replayed within the day', () =>
    expectEqual(withinDay.body?.task_id, first.body.task_id, 'task_id replayed within the day'),
  );
  await advanceClock(ctx.api, 60_000 + 1);
  const afterDay = await createWithKey(ctx.api, key, body);
  await ctx.rule('after the day the key creates a new task', () => {
    expectStatus(afterDay, 200);
    expectNotEqual(afterDay.body.task_id, first.body.task_id, 'task_id after the key expired');
  });
  await ctx.rule('two tasks exist in the end', async () =>
    expectEqual((await listTasks(ctx.api, { tags: tag })).total, 2, 'tasks created'),
  );
});
