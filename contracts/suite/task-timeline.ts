import type { AnswerOf } from '../kit/answers.js';
import {
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectErrorBody,
  expectStatus,
  expectTrue,
  show,
} from '../kit/contract.js';
import { advanceClock, holdTasksPending, useCompletion } from '../kit/control.js';
import { journaledRequests, latestRequestId } from '../kit/journal.js';
import { startReceiver, useCallbackSettings } from '../kit/receiver.js';
import { createTask, getTask, randomTaskId, TASK_NOT_FOUND } from '../kit/tasks.js';

/** A task's timeline (GET /_mock/tasks/{id}/timeline) and the read that changes nothing (GET /_mock/tasks/{id}). */

const DAY_MS = 24 * 60 * 60 * 1000;

type Timeline = AnswerOf<'get', '/_mock/tasks/{taskId}/timeline'>;
type Entry = Timeline['entries'][number];

async function timeline(ctx: ContractContext, taskId: string): Promise<Timeline> {
  const res = await ctx.api.get(`/_mock/tasks/${taskId}/timeline`);
  expectStatus(res, 200);
  return res.body;
}

/** Each entry as one short line: what a reader of the timeline sees, in its order. */
function lines(entries: readonly Entry[]): string[] {
  return entries.map((entry) => {
    switch (entry.kind) {
      case 'callback_queued':
        return `callback_queued ${entry.event}`;
      case 'callback_attempt':
        return `callback_attempt ${entry.attempt} ${entry.status_code ?? '-'} ${entry.outcome}`;
      case 'request':
        return `request ${entry.method} ${entry.path} ${entry.status}`;
      case 'error':
        return `error ${entry.error}`;
      default:
        return entry.kind;
    }
  });
}

const expectOldestFirst = (entries: readonly Entry[]) =>
  entries.forEach((entry, i) => {
    const before = entries[i - 1]?.time ?? entry.time;
    expectTrue(entry.time >= before, `entries[${i}].time ${entry.time} after the one before`);
  });

contract(
  'GET /_mock/tasks/{id}/timeline shows creation, a failed-then-retried callback and a redo in order',
  async (ctx) => {
    await ctx.needControlPlane();
    await holdTasksPending(ctx);
    if (!ctx.isDisposable(ctx.api.key))
      ctx.skip('a callback retry comes hours later: observable only by moving the clock of a --disposable-key');
    // Three attempts over a day: the retry waits hours for the clock to move, so the failed attempt is seen first.
    await useCallbackSettings(ctx, { callbacks: { max_attempts: 3, retry_scale: 1 } });
    const receiver = await startReceiver(ctx, [500], 200);
    // The journal keeps tenants that hold something: this one does before the task of the contract is made.
    await createTask(ctx.api);
    const task = await createTask(ctx.api, { callback_url: receiver.url });
    const path = `/_mock/tasks/${task.task_id}`;
    expectStatus(await ctx.api.post(`${path}/complete`), 200);
    await receiver.waitForRequests(1);
    const failed = await eventually(async () => {
      const body = await timeline(ctx, task.task_id);
      expectEqual(lines(body.entries).at(-1), 'callback_attempt 1 500 retry_scheduled', 'last entry');
      return body;
    });
    await ctx.rule('a failed attempt says when its retry is due', () => {
      const attempt = failed.entries.at(-1);
      expectTrue(attempt?.kind === 'callback_attempt', `the last entry is a callback attempt: ${show(attempt)}`);
      expectTrue(
        attempt.retry_at !== undefined && attempt.retry_at > attempt.time,
        `retry_at ${attempt.retry_at} after the attempt ${attempt.time}`,
      );
      expectTrue(Number.isInteger(attempt.duration_ms), 'duration_ms is an integer');
    });
    await advanceClock(ctx.api, DAY_MS);
    await receiver.waitForRequests(2);
    await eventually(async () => {
      const body = await timeline(ctx, task.task_id);
      expectEqual(lines(body.entries).at(-1), 'callback_attempt 2 200 delivered', 'last entry');
    });
    expectStatus(await ctx.api.post(`${path}/redo`), 200);
    const after = await timeline(ctx, task.task_id);
    await ctx.rule('creation, completion, both attempts and the redo, in order', () => {
      const creation = `request POST /v1/task/imageannotation 200`;
      // The redo queues a `recalled` callback, whose delivery may already have been tried by this read: its
      // entries (queued and attempts, one delivery) come after the redo and are another contract's subject.
      const recalled = new Set(
        after.entries.flatMap((entry) =>
          entry.kind === 'callback_queued' && entry.event === 'recalled' ? [entry.delivery_id] : [],
        ),
      );
      expectEqual(
        lines(after.entries.filter((entry) => !('delivery_id' in entry && recalled.has(entry.delivery_id)))),
        [
          'created',
          creation,
          'completed',
          'callback_queued completed',
          'callback_attempt 1 500 retried',
          'callback_attempt 2 200 delivered',
          'redone',
        ],
        'timeline',
      );
      expectOldestFirst(after.entries);
      expectEqual(
        [after.task_id, after.status, after.rebuilt, after.left_out],
        [task.task_id, 'pending', false, 0],
        '',
      );
    });
  },
);

contract('GET /_mock/tasks/{id}/timeline shows an error with its message, and a cancel', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const failing = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/_mock/tasks/${failing.task_id}/fail`, { error: 'attachment unreadable' }), 200);
  const canceled = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/v1/task/${canceled.task_id}/cancel`), 200);
  const [errorLine, cancelLines] = [
    lines((await timeline(ctx, failing.task_id)).entries).filter((line) => !line.startsWith('request')),
    lines((await timeline(ctx, canceled.task_id)).entries),
  ];
  await ctx.rule('the error with its message', () =>
    expectEqual(errorLine, ['created', 'error attachment unreadable'], 'timeline without requests'),
  );
  await ctx.rule('the cancel after the request that asked for it', () =>
    expectEqual(
      cancelLines.filter((line) => line === 'canceled' || line.includes('/cancel')),
      ['canceled', `request POST /v1/task/${canceled.task_id}/cancel 200`],
      'cancel and its request',
    ),
  );
});

contract('GET /_mock/tasks/{id} reads a task without journaling it or counting a read (mode reads)', async (ctx) => {
  await ctx.needControlPlane();
  await useCompletion(ctx, ctx.api, { mode: 'reads', reads: 1 });
  const task = await createTask(ctx.api);
  const since = await latestRequestId(ctx.api);
  const look = await ctx.api.get(`/_mock/tasks/${task.task_id}`);
  expectStatus(look, 200);
  await ctx.rule('the task as GET /v1/task answers it, still pending', () =>
    expectEqual([look.body.task_id, look.body.status], [task.task_id, 'pending'], '[task_id, status]'),
  );
  await ctx.rule('the request journal does not keep it', async () =>
    expectEqual(await journaledRequests(ctx.api, { since }), [], 'requests journaled since'),
  );
  await ctx.rule('a client read still completes it', async () =>
    expectEqual((await getTask(ctx.api, task.task_id)).status, 'completed', 'status after GET /v1/task'),
  );
  const missing = await ctx.api.get(`/_mock/tasks/${randomTaskId()}/timeline`);
  await ctx.rule('an unknown task answers 404', () => {
    expectErrorBody(missing, 404);
    expectEqual(missing.body.error, TASK_NOT_FOUND, 'error');
  });
});
