import type { Task } from '../kit/answers.js';
import {
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectStatus,
  expectTrue,
  present,
} from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { startReceiver, taskCallbackOf } from '../kit/receiver.js';
import { createTask, getTask, ISO_MS } from '../kit/tasks.js';

/**
 * Audits of a completed task: the customer's (`POST /v1/task/{id}/audit`, accepted or rejected)
 * and the service reviewers' (`POST /_mock/tasks/{id}/audit`, accepted or fixed). Each one is
 * recorded on the task and, as the real service does, sent to the callback_url.
 */

async function completedTask(ctx: ContractContext, overrides: Record<string, unknown> = {}): Promise<Task> {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api, overrides);
  const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`);
  expectStatus(res, 200);
  return res.body;
}

const audit = (ctx: ContractContext, taskId: string, body: unknown) => ctx.api.post(`/v1/task/${taskId}/audit`, body);

contract(
  'POST /v1/task/{id}/audit accepted:false rejects a completed task, ' +
    'records the audit and its comments, and sends an audit callback',
  async (ctx) => {
    await ctx.needControlPlane();
    const receiver = await startReceiver(ctx);
    const task = await completedTask(ctx, { callback_url: receiver.url });
    await receiver.waitForRequests(1);
    const comments = `Boxes too loose ${ctx.unique('c')}`;
    // The audit's answer body is not specified: the task is read back instead.
    expectStatus(await audit(ctx, task.task_id, { accepted: false, comments }), 200);
    const read = await getTask(ctx.api, task.task_id);
    await ctx.rule('accepted:false sets customer_review_status rejected and keeps the task completed', () => {
      expectEqual(read.customer_review_status, 'rejected', 'customer_review_status');
      expectEqual(read.status, 'completed', 'status (an audit does not change it)');
    });
    await ctx.rule('the audit is appended to audits with result, source and time', () => {
      expectEqual(read.audits?.length, 1, 'audits');
      const entry = present(read.audits[0], 'audits[0]');
      expectEqual(
        [entry.audit_result, entry.audit_source],
        ['rejected', 'customer'],
        'audit [audit_result, audit_source]',
      );
      expectMatch(entry.audited_at, ISO_MS, 'audits[0].audited_at');
    });
    await ctx.rule('the comments are kept in customer_review_comments', () =>
      expectEqual(read.customer_review_comments, [comments], 'customer_review_comments'),
    );
    await ctx.rule('an audit change sends a callback with the audited task', async () => {
      const { body, task: sent } = taskCallbackOf((await receiver.waitForRequests(2))[1], 'the audit callback');
      expectEqual(
        [body.task_id, sent.customer_review_status],
        [task.task_id, 'rejected'],
        'audit callback [task_id, task.customer_review_status]',
      );
    });
  },
);

contract(
  'POST /v1/task/{id}/audit accepted:true after a rejection accepts the task and appends a second audit and comment',
  async (ctx) => {
    const task = await completedTask(ctx);
    expectStatus(await audit(ctx, task.task_id, { accepted: false, comments: 'first look' }), 200);
    expectStatus(await audit(ctx, task.task_id, { accepted: true, comments: 'fine now' }), 200);
    const read = await getTask(ctx.api, task.task_id);
    expectEqual(read.customer_review_status, 'accepted', 'customer_review_status');
    expectEqual(
      read.audits?.map((a: { audit_result: string; audit_source: string }) => [a.audit_result, a.audit_source]),
      [
        ['rejected', 'customer'],
        ['accepted', 'customer'],
      ],
      'audits [audit_result, audit_source]',
    );
    expectEqual(read.customer_review_comments, ['first look', 'fine now'], 'customer_review_comments');
  },
);

contract('POST /v1/task/{id}/audit with comments null accepts without adding a comment', async (ctx) => {
  const task = await completedTask(ctx);
  expectStatus(await audit(ctx, task.task_id, { accepted: true, comments: null }), 200);
  const read = await getTask(ctx.api, task.task_id);
  expectEqual(read.customer_review_status, 'accepted', 'customer_review_status');
  expectEqual(read.audits?.length, 1, 'audits');
  expectTrue(
    read.customer_review_comments === undefined ||
      (Array.isArray(read.customer_review_comments) && read.customer_review_comments.length === 0),
    `customer_review_comments: expected none, got ${JSON.stringify(read.customer_review_comments)}`,
  );
});

contract('POST /v1/task/{id}/audit on a pending task answers 400 and records nothing', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createTask(ctx.api);
  expectErrorBody(await audit(ctx, task.task_id, { accepted: true }), 400);
  const read = await getTask(ctx.api, task.task_id);
  expectEqual([read.status, read.audits], ['pending', []], 'task [status, audits] after the refused audit');
  expectTrue(
    read.customer_review_status === undefined || read.customer_review_status === 'pending',
    `customer_review_status after the refused audit: ` +
      `expected none or pending, got ${JSON.stringify(read.customer_review_status)}`,
  );
});

contract('POST /v1/task/{id}/audit without accepted answers 400 naming accepted', async (ctx) => {
  const task = await completedTask(ctx);
  expectErrorBody(await audit(ctx, task.task_id, { comments: 'no verdict' }), 400, 'accepted');
  expectEqual((await getTask(ctx.api, task.task_id)).audits, [], 'audits after the refused audit');
});

contract(
  'POST /_mock/tasks/{id}/audit result fixed replaces the response and sets customer_review_status fixed',
  async (ctx) => {
    const receiver = await startReceiver(ctx);
    const task = await completedTask(ctx, { callback_url: receiver.url });
    const response = {
      annotations: [
        {
          type: 'box',
          uuid: 'c0ffee00-0000-4000-8000-0000000000f1',
          label: 'bus',
          attributes: {},
          left: 3,
          top: 4,
          width: 20,
          height: 10,
        },
      ],
    };
    const res = await ctx.api.post(`/_mock/tasks/${task.task_id}/audit`, { result: 'fixed', response });
    expectStatus(res, 200);
    expectEqual(
      [res.body.status, res.body.customer_review_status],
      ['completed', 'fixed'],
      '[status, customer_review_status]',
    );
    expectEqual(res.body.response, response, 'response after the fix');
    expectEqual(
      res.body.audits.map((a) => [a.audit_result, a.audit_source]),
      [['fixed', 'reviewer']],
      'audits [audit_result, audit_source]',
    );
    expectEqual((await getTask(ctx.api, task.task_id)).response, response, 'response read back');
    const { body } = taskCallbackOf((await receiver.waitForRequests(2))[1], 'the audit callback');
    expectEqual(body.response, response, 'audit callback body.response (the fixed response)');
  },
);

contract(
  'POST /_mock/tasks/{id}/audit with a response that does not fit the task answers 400 and keeps the response',
  async (ctx) => {
    const task = await completedTask(ctx);
    const response = {
      annotations: [
        {
          type: 'box',
          uuid: 'c0ffee00-0000-4000-8000-0000000000f2',
          label: 'airplane',
          attributes: {},
          left: 0,
          top: 0,
          width: 5,
          height: 5,
        },
      ],
    };
    expectErrorBody(
      await ctx.api.post(`/_mock/tasks/${task.task_id}/audit`, { result: 'fixed', response }),
      400,
      'airplane',
    );
    const read = await getTask(ctx.api, task.task_id);
    expectEqual(
      [read.response, read.customer_review_status],
      [task.response, 'pending'],
      '[response, customer_review_status] after the refused fix',
    );
  },
);
