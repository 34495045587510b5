import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
} from '../kit/contract.js';
import { holdTasksPending, useCompletion } from '../kit/control.js';
import { withFaultRule } from '../kit/faults.js';
import { journaledRequests } from '../kit/journal.js';
import { callbackJournal, startReceiver, taskCallbackOf } from '../kit/receiver.js';
import { createTask, getTask } from '../kit/tasks.js';

/**
 * The bad days a client must survive, and waiting without polling: GET /_mock/wait, redo's recall callback,
 * completion on the nth read, lost answers (after: commit) and the rate limit, and POST /v2/task.
 */

const wait = (ctx: ContractContext, query: string) => ctx.api.get(`/_mock/wait?${query}`, { raw: true });

contract('GET /_mock/wait answers the task.completed event that comes while it waits, with its number', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api);
  const waiting = wait(ctx, `event=task_completed&task_id=${task.task_id}&timeout_ms=60000`);
  // Whether the completion lands before the wait subscribes or after, the answer is the same completion.
  const completed = await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`);
  expectStatus(completed, 200);
  const res = await waiting;
  expectStatus(res, 200);
  expectEqual(res.body.event.type, 'task.completed', 'event.type');
  expectEqual(res.body.event.task_id, task.task_id, 'event.task_id');
  expectTrue(res.body.id === null || Number.isInteger(res.body.id), `id: a number or null, got ${res.body.id}`);
});

contract('GET /_mock/wait for a task already completed answers at once with id null', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api);
  expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
  const res = await wait(ctx, `event=task.completed&task_id=${task.task_id}&timeout_ms=60000`);
  expectStatus(res, 200);
  expectEqual(
    res.body,
    {
      id: null,
      event: {
        type: 'task.completed',
        time: res.body.event.time,
        task_id: task.task_id,
        task_type: task.type,
        status: 'completed',
      },
    },
    'answer',
  );
});

contract('GET /_mock/wait with since answers a matching event numbered after it that already happened', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  // A first wait watches the tenant: from then on its events are numbered and kept.
  expectStatus(await wait(ctx, `event=task.created&task_id=${ctx.unique('none')}&timeout_ms=1`), 408);
  const first = await createTask(ctx.api);
  const seen = await wait(ctx, `event=task.created&since=0&task_id=${first.task_id}&timeout_ms=60000`);
  expectStatus(seen, 200);
  const seenId = seen.body.id;
  expectTrue(seenId !== null && Number.isInteger(seenId), `a kept event has a number, got ${seenId}`);
  const second = await createTask(ctx.api);
  const res = await wait(ctx, `event=task.created&since=${seenId}&task_id=${second.task_id}&timeout_ms=60000`);
  expectStatus(res, 200);
  const { id, event } = res.body;
  expectTrue(id !== null && id > seenId, `id ${id} after since ${seenId}`);
  expectEqual('task_id' in event ? event.task_id : undefined, second.task_id, 'event.task_id');
});

contract('GET /_mock/wait answers 408 with the error body when no event comes within timeout_ms', async (ctx) => {
  await ctx.needControlPlane();
  const res = await wait(ctx, `event=task.completed&task_id=${ctx.unique('none')}&timeout_ms=50`);
  expectErrorBody(res, 408);
  expectMatch(res.body.error, /timeout_ms/, 'error');
  const bad = await wait(ctx, 'event=task.finished');
  expectErrorBody(bad, 400);
  expectMatch(bad.body.error, /event/, 'error names event');
});

contract(
  'POST /_mock/tasks/{id}/redo of a completed task sends the recalled callback: status pending',
  async (ctx) => {
    await ctx.needControlPlane();
    await holdTasksPending(ctx);
    const receiver = await startReceiver(ctx);
    const task = await createTask(ctx.api, { callback_url: receiver.url });
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`), 200);
    expectStatus(await ctx.api.post(`/_mock/tasks/${task.task_id}/redo`), 200);
    const [first, second] = await receiver.waitForRequests(2);
    const completed = taskCallbackOf(first, 'the first callback');
    const recalled = taskCallbackOf(second, 'the second callback');
    await ctx.rule('the completion comes first, then the recall', () => {
      expectEqual(completed.body.status, 'completed', 'first callback status');
      expectEqual(recalled.body.task_id, task.task_id, 'second callback task_id');
    });
    await ctx.rule('the recall names the task and carries the callback auth header', () => {
      expectEqual(recalled.body.task_id, task.task_id, 'recall task_id');
      expectTrue(second?.headers['scale-callback-auth'] !== undefined, 'recall carries scale-callback-auth');
    });
    // The docs name the event, not its body: status pending and response null are labelmock's reading.
    await ctx.rule(
      'the recall carries the task as it now is: pending, without a response',
      () => {
        expectEqual(recalled.body.status, 'pending', 'recall status');
        expectEqual(recalled.body.response, null, 'recall response');
        expectEqual(recalled.task.status, 'pending', 'recall task.status');
      },
      'labelmock',
    );
    await ctx.rule(
      'the callback journal names the deliveries completed and recalled',
      async () => {
        const deliveries = await callbackJournal(ctx.api, { task_id: task.task_id });
        const events = deliveries.map((d) => d.event).sort();
        expectEqual(events, ['completed', 'recalled'], 'journaled callback events');
      },
      'labelmock',
    );
  },
  {
    kind: 'interface',
    cites: 'real service: Callbacks ("Events that trigger a Callback": tasks recalled from completed to pending)',
  },
);

contract(
  'PATCH /_mock/settings completion reads 3: the third GET /v1/task/{id} finds the task completed',
  async (ctx) => {
    await ctx.needControlPlane();
    await useCompletion(ctx, ctx.api, { mode: 'reads', reads: 3 });
    const task = await createTask(ctx.api);
    expectEqual(task.status, 'pending', 'created status');
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await getTask(ctx.api, task.task_id)).status);
    expectEqual(statuses, ['pending', 'pending', 'completed'], 'statuses of three reads');
    const v2 = await ctx.api.get(`/v2/task?task_id=${task.task_id}`);
    expectEqual(v2.body.status, 'completed', 'GET /v2/task status');
  },
);

contract('POST /_mock/faults after: commit applies the request, then answers the rule status', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const uniqueId = ctx.unique('lost');
  await withFaultRule(ctx, {
    method: 'POST',
    path: '/v1/task/imageannotation',
    status: 502,
    after: 'commit',
    times: 1,
  });
  const lost = await ctx.api.post('/v1/task/imageannotation', createBody(uniqueId), { raw: true });
  expectStatus(lost, 502);
  const again = await ctx.api.post('/v1/task/imageannotation', createBody(uniqueId), { raw: true });
  await ctx.rule('the applied creation holds its unique_id: the retry is a 409', () => expectStatus(again, 409));
  const found = await ctx.api.get(`/v1/tasks?unique_id=${encodeURIComponent(uniqueId)}`);
  expectEqual(found.body.docs.length, 1, 'tasks with that unique_id');
  await ctx.rule('the journal keeps the committed status beside the answer sent', async () => {
    const entries = await journaledRequests(ctx.api, { method: 'POST', path: '/v1/task/imageannotation', limit: 2 });
    const faulted = entries.find((entry) => entry.status === 502);
    expectEqual(faulted?.fault?.after, 'commit', 'fault.after');
    expectEqual(faulted?.fault?.committed_status, 200, 'fault.committed_status');
  });
});

contract('PATCH /_mock/settings rate_limit: past the budget a 429 with Retry-After and X-RateLimit-*', async (ctx) => {
  await ctx.needControlPlane();
  const set = await ctx.api.patch('/_mock/settings', { rate_limit: { requests: 2, per_seconds: 60 } });
  expectStatus(set, 200);
  ctx.defer(async () => {
    expectStatus(await ctx.api.patch('/_mock/settings', { rate_limit: null }), 200);
  });
  const first = await ctx.api.get('/v1/tasks?limit=1', { raw: true });
  const second = await ctx.api.get('/v1/tasks?limit=1', { raw: true });
  const third = await ctx.api.get('/v1/tasks?limit=1', { raw: true });
  await ctx.rule('two requests pass, counting down X-RateLimit-Remaining', () => {
    expectEqual([first.status, second.status], [200, 200], 'statuses');
    expectEqual(first.headers.get('x-ratelimit-limit'), '2', 'X-RateLimit-Limit');
    expectEqual(
      [first.headers.get('x-ratelimit-remaining'), second.headers.get('x-ratelimit-remaining')],
      ['1', '0'],
      'X-RateLimit-Remaining',
    );
  });
  await ctx.rule('the third is a 429 with the error body and Retry-After until the window ends', () => {
    expectErrorBody(third, 429);
    expectMatch(third.body.error, /Rate limit exceeded/, 'error');
    expectMatch(third.headers.get('retry-after') ?? '', /^[1-9]\d*$/, 'Retry-After');
    expectEqual(third.headers.get('x-ratelimit-remaining'), '0', 'X-RateLimit-Remaining');
  });
  await ctx.rule('the control plane is not counted', async () =>
    expectStatus(await ctx.api.get('/_mock/settings'), 200),
  );
  const clock = await ctx.api.post('/_mock/clock/advance', { ms: 60_000 });
  expectStatus(clock, 200);
  await ctx.rule('a new window on the virtual clock brings the budget back', async () =>
    expectStatus(await ctx.api.get('/v1/tasks?limit=1', { raw: true }), 200),
  );
});

contract('POST /v2/task creates a pending chat task, as POST /v2/task/chat does', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const name = ctx.unique('chat-project');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'chat', name }), 200);
  const res = await ctx.api.post('/v2/task', { project_name: name, template_variables: { prompt: 'Hi?' } });
  expectStatus(res, 200);
  expectMatch(res.body.task_id, /^[0-9a-f]{24}$/, 'task_id');
  expectEqual(res.body.status, 'pending', 'status');
  const v1 = await getTask(ctx.api, res.body.task_id);
  expectEqual(v1.params.template_variables, { prompt: 'Hi?' }, 'v1 params.template_variables');
});

function createBody(uniqueId: string) {
  return {
    unique_id: uniqueId,
    attachment: 'https://example.com/a.png',
    instruction: 'Box the cars',
    geometries: { box: { objects_to_annotate: ['car'] } },
  };
}
