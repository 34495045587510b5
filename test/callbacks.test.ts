import { describe, expect, it } from 'vitest';
import { retryOffsetMs } from '../src/services/callbacks.js';
import { createImageTask, makeApp, present, type TestApp } from './helpers.js';
import { receiverPool, startReceiver, waitFor } from './receiver.js';

const receiver = receiverPool();

const journal = async (t: TestApp, taskId: string) =>
  (await t.call('GET', `/_mock/callbacks?task_id=${taskId}`)).body.deliveries;
const DAY = 24 * 3600 * 1000;

describe('callbacks', () => {
  it('completion POSTs {task_id, status, response, task} with the scale-callback-auth header', async () => {
    const t = makeApp();
    const r = await receiver();
    await t.call('PATCH', '/_mock/settings', { body: { callback_auth_key: 'secret-123' } });
    const task = await createImageTask(t, { callback_url: r.url });
    const completed = (await t.call('POST', `/_mock/tasks/${task.task_id}/complete`)).body;
    await waitFor(() => expect(r.received).toHaveLength(1));
    const call = present(r.received[0], 'the callback');
    expect(call.headers['scale-callback-auth']).toBe('secret-123');
    expect(call.headers['content-type']).toBe('application/json');
    expect(call.body).toEqual({
      task_id: task.task_id,
      status: 'completed',
      response: completed.response,
      task: completed,
    });
    const read = await waitFor(async () => {
      const body = (await t.call('GET', `/v1/task/${task.task_id}`)).body;
      expect(body.callback_succeeded).toBe(true);
      return body;
    });
    expect(read.callback_completed).toBe(true);
    const [delivery] = await journal(t, task.task_id);
    expect(delivery).toMatchObject({
      event: 'completed',
      state: 'succeeded',
      target: r.url,
      attempts: [{ attempt: 1, status_code: 200 }],
    });
  });

  it('retries failures on the virtual clock: fails twice, delivered on the third attempt', async () => {
    const t = makeApp();
    const r = await receiver((n) => (n < 2 ? 500 : 200));
    const task = await createImageTask(t, { callback_url: r.url });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await waitFor(async () => expect((await journal(t, task.task_id))[0].attempts).toHaveLength(1));
    const [pending] = await journal(t, task.task_id);
    expect(pending).toMatchObject({
      state: 'pending',
      next_attempt_at: new Date(Date.parse('2026-01-01T00:00:00.000Z') + retryOffsetMs(2, 20, 1)).toISOString(),
    });
    await t.call('POST', '/_mock/clock/advance', { body: { ms: retryOffsetMs(3, 20, 1) } });
    const [done] = await journal(t, task.task_id);
    expect(done.state).toBe('succeeded');
    expect(done.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 500, 200]);
    expect(done.attempts.map((a: { at: string }) => a.at)).toEqual([
      '2026-01-01T00:00:00.000Z',
      new Date(Date.parse('2026-01-01T00:00:00.000Z') + retryOffsetMs(3, 20, 1)).toISOString(),
      new Date(Date.parse('2026-01-01T00:00:00.000Z') + retryOffsetMs(3, 20, 1)).toISOString(),
    ]);
    expect(r.received).toHaveLength(3);
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.callback_succeeded).toBe(true);
  });

  it('after the last failed attempt both flags are false; max_attempts and retry_scale are settings', async () => {
    const t = makeApp();
    const r = await receiver(() => 503);
    await t.call('PATCH', '/_mock/settings', { body: { callbacks: { max_attempts: 3, retry_scale: 0.001 } } });
    const task = await createImageTask(t, { callback_url: r.url });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 0.001 * DAY } });
    const [delivery] = await waitFor(async () => {
      const entries = await journal(t, task.task_id);
      expect(entries[0].state).toBe('failed');
      return entries;
    });
    expect(delivery.attempts).toHaveLength(3);
    const read = (await t.call('GET', `/v1/task/${task.task_id}`)).body;
    expect([read.callback_succeeded, read.callback_completed]).toEqual([false, false]);
  });

  it('spreads 20 attempts over 24 hours, doubling the wait each time', () => {
    expect(retryOffsetMs(1, 20, 1)).toBe(0);
    expect(retryOffsetMs(20, 20, 1)).toBe(DAY);
    const wait = (n: number) => retryOffsetMs(n + 1, 20, 1) - retryOffsetMs(n, 20, 1);
    expect(wait(3) / wait(2)).toBeCloseTo(2, 1);
    expect(retryOffsetMs(20, 20, 0.5)).toBe(DAY / 2);
  });

  it('records a refused connection and a receiver that does not answer in time', async () => {
    const t = makeApp();
    const hanging = await receiver(() => 'hang');
    await t.call('PATCH', '/_mock/settings', { body: { callbacks: { max_attempts: 1, timeout_ms: 100 } } });
    const closed = await startReceiver();
    await closed.close();
    const refused = await createImageTask(t, { callback_url: closed.url });
    const slow = await createImageTask(t, { callback_url: hanging.url });
    await t.call('POST', `/_mock/tasks/${refused.task_id}/complete`);
    await t.call('POST', `/_mock/tasks/${slow.task_id}/complete`);
    const [a] = await waitFor(async () => {
      const entries = await journal(t, refused.task_id);
      expect(entries[0].state).toBe('failed');
      return entries;
    });
    expect(a.attempts[0].error).toMatch(/ECONNREFUSED/);
    const [b] = await waitFor(async () => {
      const entries = await journal(t, slow.task_id);
      expect(entries[0].state).toBe('failed');
      return entries;
    });
    expect(b.attempts[0].error).toBe('no answer within 100 ms');
  });

  it('a hanging receiver does not hold up other requests', async () => {
    const t = makeApp();
    const hanging = await receiver(() => 'hang');
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    const task = await createImageTask(t, { callback_url: hanging.url });
    await waitFor(() => expect(hanging.held).toHaveLength(1));
    // The receiver still holds the callback open; the API keeps answering meanwhile.
    for (let i = 0; i < 5; i += 1) expect((await t.call('GET', `/v1/task/${task.task_id}`)).status).toBe(200);
    expect((await createImageTask(t)).status).toBe('pending');
    expect(hanging.held).toHaveLength(1);
    expect((await journal(t, task.task_id))[0].attempts).toHaveLength(0);
  });

  it('an e-mail callback is journaled, not sent', async () => {
    const t = makeApp();
    const task = await createImageTask(t, { callback_url: 'ops@example.com' });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const [delivery] = await journal(t, task.task_id);
    expect(delivery).toMatchObject({ state: 'recorded', target: 'ops@example.com', attempts: [] });
    // Nothing was POSTed, so no 2xx came back: the flags stay false.
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.callback_succeeded).toBe(false);
  });

  it('a failed task sends an error callback', async () => {
    const t = makeApp();
    const r = await receiver();
    const task = await createImageTask(t, { callback_url: r.url });
    await t.call('POST', `/_mock/tasks/${task.task_id}/fail`, { body: { error: 'broken image' } });
    await waitFor(() => expect(r.received).toHaveLength(1));
    expect(r.received[0]?.body).toMatchObject({
      task_id: task.task_id,
      status: 'error',
      response: null,
      task: { status: 'error', error: 'broken image' },
    });
  });

  it('redo sends the recall, and a second completion a new callback', async () => {
    const t = makeApp();
    const r = await receiver();
    const task = await createImageTask(t, { callback_url: r.url });
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await t.call('POST', `/_mock/tasks/${task.task_id}/redo`);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await waitFor(() => expect(r.received).toHaveLength(3));
    expect(r.received.map((call) => call.body)).toMatchObject([
      { status: 'completed' },
      { status: 'pending' },
      { status: 'completed', task: { times_redone: 1 } },
    ]);
  });

  it('GET /_mock/callbacks filters by task_id and shows nothing of other tenants', async () => {
    const t = makeApp();
    const a = await createImageTask(t, { callback_url: 'a@example.com' });
    const b = await createImageTask(t, { callback_url: 'b@example.com' });
    await t.call('POST', `/_mock/tasks/${a.task_id}/complete`);
    await t.call('POST', `/_mock/tasks/${b.task_id}/complete`);
    expect((await t.call('GET', '/_mock/callbacks')).body.deliveries).toHaveLength(2);
    expect((await journal(t, a.task_id)).map((d: { task_id: string }) => d.task_id)).toEqual([a.task_id]);
    expect((await t.call('GET', '/_mock/callbacks', { key: 'test_other' })).body.deliveries).toEqual([]);
  });

  it('a batch callback goes out when the batch completes, with its counts', async () => {
    const t = makeApp();
    const r = await receiver();
    await t.call('POST', '/v1/projects', {
      body: { type: 'imageannotation', name: 'p', params: { geometries: { box: { objects_to_annotate: ['car'] } } } },
    });
    await t.call('POST', '/v1/batches', { body: { project: 'p', name: 'b', callback: r.url } });
    const task = (
      await t.call('POST', '/v1/task/imageannotation', { body: { batch: 'b', attachment: 'https://x.test/a.png' } })
    ).body;
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await waitFor(() => expect(r.received).toHaveLength(1));
    expect(r.received[0]?.body).toMatchObject({
      status: 'completed',
      batch: { name: 'b', project: 'p', status: 'completed' },
      counts: { completed: 1, pending: 0 },
    });
    expect((await t.call('GET', '/_mock/callbacks?batch=b')).body.deliveries[0]).toMatchObject({
      event: 'batch_completed',
      batch: 'b',
    });
  });
});

describe('audits', () => {
  it('POST /v1/task/{id}/audit accepts or rejects a completed task and sends a callback', async () => {
    const t = makeApp();
    const r = await receiver();
    const task = await createImageTask(t, { callback_url: r.url });
    const early = await t.call('POST', `/v1/task/${task.task_id}/audit`, { body: { accepted: true } });
    expect(early.status).toBe(400);
    expect(early.body.error).toMatch(/is pending; only completed tasks can be audited/);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const res = await t.call('POST', `/v1/task/${task.task_id}/audit`, {
      body: { accepted: false, comments: 'Boxes too loose' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      customer_review_status: 'rejected',
      customer_review_comments: ['Boxes too loose'],
      audits: [
        {
          audited_by: 'customer',
          audit_result: 'rejected',
          audit_source: 'customer',
          audited_at: '2026-01-01T00:00:00.000Z',
        },
      ],
    });
    await waitFor(() => expect(r.received).toHaveLength(2));
    expect((await journal(t, task.task_id)).map((d: { event: string }) => d.event)).toEqual(['completed', 'audit']);
    const accepted = await t.call('POST', `/v1/task/${task.task_id}/audit`, {
      body: { accepted: true, comments: null },
    });
    expect(accepted.body.customer_review_status).toBe('accepted');
    expect(accepted.body.audits).toHaveLength(2);
    expect((await t.call('POST', `/v1/task/${task.task_id}/audit`, { body: { comments: 'x' } })).body.error).toMatch(
      /"accepted" is required/,
    );
  });

  it('POST /_mock/tasks/{id}/audit records a reviewer fix with a corrected response', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const response = {
      annotations: [{ type: 'box', uuid: 'fixed-1', label: 'bus', left: 1, top: 1, width: 10, height: 10 }],
    };
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/audit`, { body: { result: 'fixed', response } });
    expect(res.body).toMatchObject({
      customer_review_status: 'fixed',
      response,
      audits: [{ audit_result: 'fixed', audit_source: 'reviewer' }],
    });
    const bad = await t.call('POST', `/_mock/tasks/${task.task_id}/audit`, {
      body: {
        result: 'fixed',
        response: { annotations: [{ type: 'box', uuid: 'x', label: 'plane', left: 0, top: 0, width: 1, height: 1 }] },
      },
    });
    expect(bad.status).toBe(400);
    expect(
      (await t.call('POST', `/_mock/tasks/${task.task_id}/audit`, { body: { result: 'accepted', response } })).body
        .error,
    ).toMatch(/"response" is only allowed with result fixed/);
  });
});
