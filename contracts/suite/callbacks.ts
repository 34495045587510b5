import type { Task, TaskCommon } from '../kit/answers.js';
import {
  asObject,
  type ContractContext,
  contract,
  eventually,
  expectEqual,
  expectHasKey,
  expectMatch,
  expectNoKey,
  expectStatus,
  expectTrue,
  present,
  setupStep,
} from '../kit/contract.js';
import { advanceClock, holdTasksPending } from '../kit/control.js';
import {
  callbackJournal,
  deliveryEventually,
  journalEventually,
  type ReceivedCallback,
  refusedUrl,
  startReceiver,
  useCallbackSettings,
} from '../kit/receiver.js';
import { createTask, createTaskRequest, expectTaskShape, getTask } from '../kit/tasks.js';

/**
 * The completion callback, the one event of the interface: what is sent, to whom, with which
 * header, how failures are retried on the virtual clock, and that a slow receiver never slows
 * the API. Every receiver listens on 127.0.0.1; nothing is ever sent elsewhere.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** Callback contracts drive completion through /_mock and need tasks that wait for it. */
async function prepare(ctx: ContractContext): Promise<void> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
}

async function completeTask(ctx: ContractContext, taskId: string): Promise<Task> {
  const res = await ctx.api.post(`/_mock/tasks/${taskId}/complete`);
  expectStatus(res, 200);
  return res.body;
}

/** Both flags, polled: delivery runs after the request that caused it. */
function flagsEventually(ctx: ContractContext, taskId: string, expected: boolean): Promise<Task> {
  return eventually(async () => {
    const task = await getTask(ctx.api, taskId);
    expectEqual(
      [task.callback_succeeded, task.callback_completed],
      [expected, expected],
      `${taskId} [callback_succeeded, callback_completed]`,
    );
    return task;
  });
}

/** A task's callback as the interface describes it, once `expectCallbackBody` has checked it. */
interface TaskCallback {
  response: unknown;
  task: TaskCommon;
}

function expectCallbackBody(call: ReceivedCallback, taskId: string, status: string): TaskCallback {
  expectEqual(call.method, 'POST', 'callback method');
  expectMatch(call.headers['content-type'], /^application\/json/, 'callback content-type');
  const body = call.body;
  expectTrue(
    body && typeof body === 'object',
    `callback body: expected a JSON object, got ${JSON.stringify(call.text)}`,
  );
  expectHasKey(body, 'task_id', 'callback body');
  expectEqual(body.task_id, taskId, 'callback body.task_id');
  expectHasKey(body, 'status', 'callback body');
  expectEqual(body.status, status, 'callback body.status');
  expectHasKey(body, 'response', 'callback body');
  expectHasKey(body, 'task', 'callback body');
  const task = body.task;
  expectTaskShape(task, 'callback body.task');
  expectEqual(task.task_id, taskId, 'callback body.task.task_id');
  expectEqual(task.status, status, 'callback body.task.status');
  return { response: body.response, task };
}

contract(
  'POST /_mock/tasks/{id}/complete sends {task_id, status, response, task} to callback_url ' +
    'with the scale-callback-auth key',
  async (ctx) => {
    await prepare(ctx);
    await useCallbackSettings(ctx, { callback_auth_key: ctx.unique('cbkey') });
    const settings = await ctx.api.get('/_mock/settings');
    expectStatus(settings, 200);
    const receiver = await startReceiver(ctx);
    const task = await createTask(ctx.api, { callback_url: receiver.url });
    const done = await setupStep('complete the task', () => completeTask(ctx, task.task_id));
    const call = await receiver.waitForRequest(1);
    await ctx.rule('the callback carries the scale-callback-auth header with the callback auth key', () =>
      expectEqual(
        call.headers['scale-callback-auth'],
        settings.body.callback_auth_key,
        'scale-callback-auth header (the tenant callback_auth_key)',
      ),
    );
    await ctx.rule('the callback is a JSON POST of {task_id, status, response, task}', () => {
      const callback = expectCallbackBody(call, task.task_id, 'completed');
      expectEqual(callback.response, done.response, 'callback body.response (the completed task response)');
      expectEqual(callback.task.response, done.response, 'callback body.task.response');
      expectEqual(callback.task.completed_at, done.completed_at, 'callback body.task.completed_at');
    });
    await ctx.rule('a 2xx answer sets callback_succeeded and callback_completed', () =>
      flagsEventually(ctx, task.task_id, true),
    );
    await ctx.rule('one completion sends one callback', () =>
      expectEqual(receiver.received.length, 1, 'requests received for one completion'),
    );
  },
);

contract('GET /_mock/callbacks journals a delivered callback as succeeded with one attempt', async (ctx) => {
  await prepare(ctx);
  const receiver = await startReceiver(ctx);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  await completeTask(ctx, task.task_id);
  await receiver.waitForRequests(1);
  const delivery = await deliveryEventually(ctx.api, { task_id: task.task_id }, 'succeeded');
  expectEqual(
    [delivery.event, delivery.target, delivery.attempts.length],
    ['completed', receiver.url, 1],
    'journal [event, target, attempts]',
  );
});

contract('a callback answered 500 is retried until a 2xx answer, then callback_succeeded is true', async (ctx) => {
  await prepare(ctx);
  if (!ctx.isDisposable(ctx.api.key))
    ctx.skip('retries come hours apart: observable only by moving the clock of a --disposable-key');
  const receiver = await startReceiver(ctx, [500], 200);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  await setupStep('complete the task', () => completeTask(ctx, task.task_id));
  await receiver.waitForRequests(1);
  await advanceClock(ctx.api, DAY_MS);
  const retry = await receiver.waitForRequest(2);
  const first = await receiver.waitForRequest(1);
  await ctx.rule('the retry repeats the callback body', () => expectCallbackBody(retry, task.task_id, 'completed'));
  await ctx.rule('the retry carries the scale-callback-auth header', () =>
    expectEqual(retry.headers['scale-callback-auth'], first.headers['scale-callback-auth'], 'retry header'),
  );
  await ctx.rule('a 2xx retry sets callback_succeeded', () => flagsEventually(ctx, task.task_id, true));
});

// Any 2xx is success (real-service-notes): a receiver that answers 204 or 202 is not retried.
contract(
  'POST /_mock/tasks/{id}/complete to a receiver answering 204 sets callback_succeeded (any 2xx is success)',
  async (ctx) => {
    await prepare(ctx);
    const receiver = await startReceiver(ctx, [], 204);
    const task = await createTask(ctx.api, { callback_url: receiver.url });
    await setupStep('complete the task', () => completeTask(ctx, task.task_id));
    await receiver.waitForRequests(1);
    await ctx.rule('a 204 answer sets callback_succeeded and callback_completed', () =>
      flagsEventually(ctx, task.task_id, true),
    );
  },
  { kind: 'interface' },
);

contract('POST /_mock/tasks/{id}/fail sends a callback with status error', async (ctx) => {
  await prepare(ctx);
  const receiver = await startReceiver(ctx);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/fail`, { error: 'attachment could not be read' });
  expectStatus(res, 200);
  const call = await receiver.waitForRequest(1);
  expectCallbackBody(call, task.task_id, 'error');
  const delivery = await deliveryEventually(ctx.api, { task_id: task.task_id }, 'succeeded');
  expectEqual(delivery.event, 'error', 'journal event');
});

contract(
  'a callback answered 500 twice is retried on the virtual clock and delivered on the third attempt',
  async (ctx) => {
    await prepare(ctx);
    // The real service's schedule: 20 attempts over 24 hours, so one day covers the first three.
    await useCallbackSettings(ctx, { callbacks: { max_attempts: 20, retry_scale: 1 } });
    const receiver = await startReceiver(ctx, [500, 500], 200);
    const task = await createTask(ctx.api, { callback_url: receiver.url });
    await completeTask(ctx, task.task_id);
    await receiver.waitForRequests(1);
    await advanceClock(ctx.api, DAY_MS);
    const delivery = await deliveryEventually(ctx.api, { task_id: task.task_id }, 'succeeded');
    expectEqual(
      delivery.attempts.map((a: { status_code?: number }) => a.status_code),
      [500, 500, 200],
      'status codes of the attempts',
    );
    expectEqual(receiver.received.length, 3, 'requests received');
    expectNoKey(delivery, 'next_attempt_at', 'a delivered callback');
    await flagsEventually(ctx, task.task_id, true);
  },
);

contract('a callback whose every attempt fails is failed after max_attempts, with both flags false', async (ctx) => {
  await prepare(ctx);
  await useCallbackSettings(ctx, { callbacks: { max_attempts: 3, retry_scale: 0.001 } });
  const receiver = await startReceiver(ctx, [], 500);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  await completeTask(ctx, task.task_id);
  await receiver.waitForRequests(1);
  // retry_scale 0.001 spreads the attempts over 86.4 s of the virtual clock; a day is plenty.
  await advanceClock(ctx.api, DAY_MS);
  const delivery = await deliveryEventually(ctx.api, { task_id: task.task_id }, 'failed');
  expectEqual(
    delivery.attempts.map((a: { status_code?: number }) => a.status_code),
    [500, 500, 500],
    'status codes of the attempts',
  );
  expectEqual(receiver.received.length, 3, 'requests received (no attempt beyond max_attempts)');
  await flagsEventually(ctx, task.task_id, false);
});

contract('a callback to a refused connection is journaled as an attempt with an error', async (ctx) => {
  await prepare(ctx);
  await useCallbackSettings(ctx, { callbacks: { max_attempts: 1 } });
  const url = await refusedUrl(ctx);
  const task = await createTask(ctx.api, { callback_url: url });
  await completeTask(ctx, task.task_id);
  const delivery = await deliveryEventually(ctx.api, { task_id: task.task_id }, 'failed');
  expectEqual([delivery.target, delivery.attempts.length], [url, 1], 'journal [target, attempts]');
  const attempt = present(delivery.attempts[0], 'the attempt');
  expectTrue(
    typeof attempt.error === 'string' && attempt.error.trim() !== '',
    `attempt error: expected a reason, got ${JSON.stringify(attempt)}`,
  );
  expectNoKey(attempt, 'status_code', 'an attempt that got no answer');
  await flagsEventually(ctx, task.task_id, false);
});

contract('an e-mail callback_url is journaled as recorded and never sent', async (ctx) => {
  await prepare(ctx);
  const address = `${ctx.unique('results')}@example.com`;
  const task = await createTask(ctx.api, { callback_url: address });
  await completeTask(ctx, task.task_id);
  const deliveries = await journalEventually(ctx.api, { task_id: task.task_id }, (d) =>
    expectEqual(d.length, 1, 'deliveries'),
  );
  const delivery = present(deliveries[0], 'the delivery');
  expectEqual(
    [delivery.state, delivery.target, delivery.attempts],
    ['recorded', address, []],
    'journal [state, target, attempts]',
  );
  expectEqual(delivery.body.task_id, task.task_id, 'journaled body.task_id');
});

contract('a batch with a callback receives {batch, status, counts} when its only task completes', async (ctx) => {
  await prepare(ctx);
  const receiver = await startReceiver(ctx);
  const project = ctx.unique('project');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'imageannotation', name: project }), 200);
  const name = ctx.unique('batch');
  expectStatus(await ctx.api.post('/v1/batches', { project, name, callback: receiver.url }), 200);
  const created = await createTaskRequest(ctx.api, { batch: name });
  expectStatus(created, 200);
  await completeTask(ctx, created.body.task_id);
  const call = await receiver.waitForRequest(1);
  expectEqual(call.method, 'POST', 'batch callback method');
  const body = asObject(call.body, 'batch callback body');
  const batch = asObject(body.batch, 'batch callback body.batch');
  expectEqual(
    [body.status, batch.name, batch.project],
    ['completed', name, project],
    'batch callback [status, batch.name, batch.project]',
  );
  expectEqual(body.counts, { pending: 0, completed: 1, error: 0, canceled: 0 }, 'batch callback counts');
  const delivery = await deliveryEventually(ctx.api, { batch: name }, 'succeeded');
  expectEqual([delivery.event, delivery.target], ['batch_completed', receiver.url], 'journal [event, target]');
});

contract('a receiver that holds the callback open does not block other API calls', async (ctx) => {
  await prepare(ctx);
  // One attempt only: once the receiver drops the held request, the delivery ends instead of retrying.
  await useCallbackSettings(ctx, { callbacks: { max_attempts: 1 } });
  const receiver = await startReceiver(ctx, ['hang']);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  await completeTask(ctx, task.task_id);
  await receiver.waitForRequests(1);
  expectEqual(receiver.holding(), 1, 'requests held by the receiver');
  for (let i = 0; i < 3; i += 1)
    expectEqual((await getTask(ctx.api, task.task_id)).status, 'completed', 'status read while the callback is held');
  const fresh = await createTaskRequest(ctx.api);
  expectStatus(fresh, 200);
  const read = await ctx.api.get(`/v1/task/${fresh.body.task_id}`);
  expectStatus(read, 200);
  // Still held: the answers above came while the callback was in flight, not after it ended.
  expectEqual(receiver.holding(), 1, 'requests still held by the receiver');
  expectEqual(
    (await callbackJournal(ctx.api, { task_id: task.task_id }))[0]?.state,
    'pending',
    'journal state while held',
  );
  expectEqual((await getTask(ctx.api, task.task_id)).callback_succeeded, false, 'callback_succeeded while held');
  await receiver.close();
  await journalEventually(ctx.api, { task_id: task.task_id }, (d) =>
    expectEqual(d[0]?.state, 'failed', 'journal state after the receiver dropped the request'),
  );
});

contract('POST /_mock/tasks/{id}/redo and a second completion send a second completion callback', async (ctx) => {
  await prepare(ctx);
  const receiver = await startReceiver(ctx);
  const task = await createTask(ctx.api, { callback_url: receiver.url });
  await completeTask(ctx, task.task_id);
  await receiver.waitForRequests(1);
  const redone = await ctx.api.post(`/_mock/tasks/${task.task_id}/redo`);
  expectStatus(redone, 200);
  expectEqual([redone.body.status, redone.body.times_redone], ['pending', 1], 'redo [status, times_redone]');
  // The redo's own callback (the recall) comes between: contracts/suite/failure-paths.ts checks it.
  await receiver.waitForRequests(2);
  await completeTask(ctx, task.task_id);
  const second = await receiver.waitForRequest(3);
  const callback = expectCallbackBody(second, task.task_id, 'completed');
  expectEqual(callback.task.times_redone, 1, 'second callback body.task.times_redone');
  const deliveries = await journalEventually(ctx.api, { task_id: task.task_id }, (d) =>
    expectEqual(
      d.map((x) => x.state),
      ['succeeded', 'succeeded', 'succeeded'],
      'journal states',
    ),
  );
  expectEqual(
    deliveries.map((d) => d.event),
    ['completed', 'recalled', 'completed'],
    'journal events',
  );
});
