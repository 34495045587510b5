import { describe, expect, it } from 'vitest';
import { createImageTask, makeApp, present, type TestApp } from './helpers.js';
import { receiverPool, waitFor } from './receiver.js';

const receiver = receiverPool();

/** Waits until the app has `busy` deliveries in flight and `queued` waiting for a slot. */
const slots = (t: TestApp, busy: number, queued: number) =>
  waitFor(() => {
    const { deliveries } = t.app.services;
    expect([deliveries.busy, deliveries.queued]).toEqual([busy, queued]);
  });
const journal = async (t: TestApp, key?: string) =>
  (await t.call('GET', '/_mock/callbacks', key ? { key } : {})).body.deliveries;

async function completeWithCallback(t: TestApp, url: string, key?: string): Promise<string> {
  const task = await createImageTask(t, { callback_url: url }, key);
  const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, key ? { key } : {});
  expect(res.status).toBe(200);
  return task.task_id;
}

describe('callback delivery limits', () => {
  it('POST /_mock/tasks/{id}/complete beyond a tenant share of slots queues callbacks first in first out', async () => {
    // 8 slots app-wide: one tenant holds at most 2 of them.
    const t = makeApp({ config: { maxCallbacksInFlight: 8 } });
    const r = await receiver(() => 'hang');
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await completeWithCallback(t, r.url));
    await waitFor(() => expect(r.held).toHaveLength(2));
    await slots(t, 2, 3);
    expect(r.received.map((call) => call.body)).toMatchObject(ids.slice(0, 2).map((task_id) => ({ task_id })));
    present(r.held[0], 'held request 1').writeHead(200).end();
    await waitFor(() => expect(r.received).toHaveLength(3));
    expect(r.received[2]?.body).toMatchObject({ task_id: ids[2] });
    for (let i = 1; i < 5; i += 1) {
      await waitFor(() => expect(r.held.length).toBeGreaterThan(i));
      present(r.held[i], `held request ${i + 1}`)
        .writeHead(200)
        .end();
    }
    const entries = await waitFor(async () => {
      const all = await journal(t);
      expect(all.map((d: { state: string }) => d.state)).toEqual(Array(5).fill('succeeded'));
      return all;
    });
    expect(entries.map((d: { attempts: unknown[] }) => d.attempts.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it('POST /_mock/tasks/{id}/complete in many tenants opens at most --max-callbacks-in-flight app-wide', async () => {
    const t = makeApp({ config: { maxCallbacksInFlight: 4 } });
    const r = await receiver(() => 'hang');
    for (let i = 0; i < 6; i += 1) await completeWithCallback(t, r.url, `test_tenant${i}`);
    await waitFor(() => expect(r.held).toHaveLength(4));
    await slots(t, 4, 2);
    expect(r.received).toHaveLength(4);
    present(r.held[0], 'held request 1').writeHead(200).end();
    await waitFor(() => expect(r.received).toHaveLength(5));
    present(r.held[1], 'held request 2').writeHead(200).end();
    await waitFor(() => expect(r.received).toHaveLength(6));
  });

  it("POST /_mock/tasks/{id}/complete of one tenant is delivered while another tenant's receivers hang", async () => {
    const t = makeApp({ config: { maxCallbacksInFlight: 8 } });
    const hanging = await receiver(() => 'hang');
    const fine = await receiver();
    for (let i = 0; i < 5; i += 1) await completeWithCallback(t, hanging.url, 'test_noisy');
    await waitFor(() => expect(hanging.held).toHaveLength(2));
    const taskId = await completeWithCallback(t, fine.url, 'test_quiet');
    const [delivery] = await waitFor(async () => {
      const entries = await journal(t, 'test_quiet');
      expect(entries[0].state).toBe('succeeded');
      return entries;
    });
    expect(delivery).toMatchObject({ task_id: taskId, attempts: [{ attempt: 1, status_code: 200 }] });
    expect(hanging.received).toHaveLength(2);
  });

  it('POST /_mock/tasks/{id}/complete gives a queued callback its whole timeout once it is sent', async () => {
    const t = makeApp({ config: { maxCallbacksInFlight: 1 } });
    const r = await receiver(() => 'hang');
    await t.call('PATCH', '/_mock/settings', { body: { callbacks: { max_attempts: 1, timeout_ms: 100 } } });
    const first = await completeWithCallback(t, r.url);
    const second = await completeWithCallback(t, r.url);
    await waitFor(() => expect(r.held).toHaveLength(1));
    await slots(t, 1, 1);
    expect(r.received.map((call) => call.body)).toMatchObject([{ task_id: first }]);
    const entries = await waitFor(async () => {
      const all = await journal(t);
      expect(all.map((d: { state: string }) => d.state)).toEqual(['failed', 'failed']);
      return all;
    });
    expect(r.received.map((call) => call.body)).toMatchObject([{ task_id: first }, { task_id: second }]);
    expect(entries.map((d: { attempts: { error: string }[] }) => d.attempts[0]?.error)).toEqual([
      'no answer within 100 ms',
      'no answer within 100 ms',
    ]);
  });

  it('GET /_mock/callbacks keeps --callback-journal-size entries, dropping the oldest finished first', async () => {
    const t = makeApp({ config: { callbackJournalSize: 3 } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await completeWithCallback(t, `ops${i}@example.com`));
    const res = await t.call('GET', '/_mock/callbacks');
    expect(res.status).toBe(200);
    expect(res.body.deliveries.map((d: { task_id: string; state: string }) => [d.task_id, d.state])).toEqual(
      ids.slice(2).map((id) => [id, 'recorded']),
    );
  });

  it('GET /_mock/callbacks keeps pending deliveries past the journal size; new ones drop finished ones', async () => {
    const t = makeApp({ config: { callbackJournalSize: 2 } });
    const r = await receiver(() => 'hang');
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(await completeWithCallback(t, r.url));
    expect((await journal(t)).map((d: { state: string }) => d.state)).toEqual(['pending', 'pending', 'pending']);
    await waitFor(() => expect(r.held).toHaveLength(3));
    for (const held of r.held) held.writeHead(200).end();
    await waitFor(async () =>
      expect((await journal(t)).map((d: { state: string }) => d.state)).toEqual([
        'succeeded',
        'succeeded',
        'succeeded',
      ]),
    );
    ids.push(await completeWithCallback(t, 'ops@example.com'));
    const res = await t.call('GET', '/_mock/callbacks');
    expect(res.status).toBe(200);
    expect(res.body.deliveries.map((d: { task_id: string }) => d.task_id)).toEqual(ids.slice(2));
  });

  it('POST /_mock/tasks/{id}/complete sends the callback through an injected fetch, no socket needed', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const fetch = async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response('ok', { status: 202 });
    };
    const t = makeApp({ fetch });
    const taskId = await completeWithCallback(t, 'http://receiver.invalid/hook');
    const [delivery] = await waitFor(async () => {
      const entries = await journal(t);
      expect(entries[0].state).toBe('succeeded');
      return entries;
    });
    expect(delivery.attempts).toMatchObject([{ attempt: 1, status_code: 202 }]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('http://receiver.invalid/hook');
    expect(JSON.parse(String(sent[0]?.init.body))).toMatchObject({ task_id: taskId, status: 'completed' });
  });
});
