import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SUBSCRIBERS_PER_TENANT, MAX_WATCHED_TENANTS } from '../src/domain/events/schemas.js';
import { HeldRequests } from '../src/runtime/held-requests.js';
import { EventBus } from '../src/services/events.js';
import { basic, createImageTask, imageRequest, KEY, makeApp, present, type TestApp } from './helpers.js';
import { startShutdownServer } from './shutdown-server.js';
import { SseReader } from './sse-reader.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** Subscribes in process; the reader is cancelled when the test ends. */
async function subscribe(t: TestApp, key = KEY) {
  const res = await t.app.request('/_mock/events', { headers: { authorization: basic(key) } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(res.body);
  cleanups.push(() => reader.cancel().catch(() => {}));
  expect(await reader.next()).toEqual({ comment: 'subscribed' });
  return reader;
}

const okFetch = async () => new Response('ok', { status: 200 });

/** The next `count` events (comments skipped), as [event, data]. */
async function take(reader: SseReader, count: number) {
  const seen: [string | undefined, any][] = [];
  while (seen.length < count) {
    const message = await reader.nextEvent();
    seen.push([message.event, message.data]);
  }
  return seen;
}

describe('event stream', () => {
  it('GET /_mock/events streams task.created, task.completed, task.redone, task.canceled and task.error', async () => {
    const t = makeApp();
    const events = await subscribe(t);
    const task = await createImageTask(t);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await t.call('POST', `/_mock/tasks/${task.task_id}/redo`);
    await t.call('POST', `/v1/task/${task.task_id}/cancel`);
    const other = await createImageTask(t);
    await t.call('POST', `/_mock/tasks/${other.task_id}/fail`);
    const seen = (await take(events, 9)).filter(([event]) => event !== 'request');
    expect(seen.map(([event, data]) => [event, data.type, data.task_id, data.status])).toEqual([
      ['task.created', 'task.created', task.task_id, 'pending'],
      ['task.completed', 'task.completed', task.task_id, 'completed'],
      ['task.redone', 'task.redone', task.task_id, 'pending'],
      ['task.canceled', 'task.canceled', task.task_id, 'canceled'],
      ['task.created', 'task.created', other.task_id, 'pending'],
      ['task.error', 'task.error', other.task_id, 'error'],
    ]);
    expect(seen[0]?.[1]).toMatchObject({ task_type: 'imageannotation', time: new Date(t.clock.now()).toISOString() });
  });

  it('GET /_mock/events numbers its messages and sends a request event per journaled request', async () => {
    const t = makeApp();
    // A tenant that holds something: only such a tenant's requests are journaled.
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    const res = await t.app.request('/_mock/events', { headers: { authorization: basic(KEY) } });
    const reader = new SseReader(res.body);
    cleanups.push(() => reader.cancel().catch(() => {}));
    await reader.next();
    await t.call('GET', '/v1/task/missing');
    const message = await reader.nextEvent();
    expect(message).toMatchObject({ event: 'request', id: '1' });
    expect(message.data).toEqual({
      type: 'request',
      time: new Date(t.clock.now()).toISOString(),
      request_id: 'req_1',
      method: 'GET',
      path: '/v1/task/missing',
      status: 404,
    });
    const journal = await t.call('GET', '/_mock/requests');
    expect(journal.body.requests.map((entry: any) => entry.id)).toEqual(['req_1']);
  });

  it('GET /_mock/events streams batch.completed and callback.attempt with the delivery', async () => {
    const t = makeApp({ fetch: okFetch });
    await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
    await t.call('POST', '/v1/batches', { body: { project: 'p', name: 'b' } });
    const task = await createImageTask(t, { project: 'p', batch: 'b', callback_url: 'https://example.com/cb' });
    await t.call('POST', '/v1/batches/b/finalize');
    const events = await subscribe(t);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    const seen = await take(events, 3);
    const byType = Object.fromEntries(seen.map(([event, data]) => [event, data]));
    expect(Object.keys(byType).sort()).toEqual(['batch.completed', 'callback.attempt', 'task.completed']);
    expect(byType['batch.completed']).toMatchObject({ batch: 'b' });
    const [delivery] = (await t.call('GET', '/_mock/callbacks')).body.deliveries;
    expect(byType['callback.attempt']).toEqual({
      type: 'callback.attempt',
      time: delivery.attempts[0].at,
      delivery_id: delivery.id,
      task_id: task.task_id,
      attempt: 1,
      status_code: 200,
      state: 'succeeded',
    });
  });

  it("GET /_mock/events of one tenant never carries another tenant's events", async () => {
    const t = makeApp();
    const mine = await subscribe(t);
    await createImageTask(t, {}, 'test_other');
    const task = await createImageTask(t);
    const [event, data] = present((await take(mine, 1))[0], 'the first event');
    expect([event, data.task_id]).toEqual(['task.created', task.task_id]);
  });

  it(`GET /_mock/events past ${MAX_SUBSCRIBERS_PER_TENANT} subscribers per tenant answers 503 naming it`, async () => {
    const t = makeApp();
    for (let i = 0; i < MAX_SUBSCRIBERS_PER_TENANT; i += 1) await subscribe(t);
    const refused = await t.call('GET', '/_mock/events');
    expect(refused.status).toBe(503);
    expect(refused.body.error).toContain(`already has ${MAX_SUBSCRIBERS_PER_TENANT} subscribers`);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect((await subscribe(t, 'test_other')).constructor).toBe(SseReader);
  });

  it('GET /_mock/events ends the subscription when the client goes away', async () => {
    const t = makeApp();
    const reader = await subscribe(t);
    expect(t.app.services.events.subscriberCount('test:acme')).toBe(1);
    await reader.cancel();
    await expect.poll(() => t.app.services.events.subscriberCount('test:acme')).toBe(0);
  });

  it('GET /_mock/events ends its stream when the app is disposed', async () => {
    const t = makeApp();
    const reader = await subscribe(t);
    t.app.dispose();
    expect(await reader.ends(1000)).toBe(true);
    expect(t.app.services.events.subscriberCount('test:acme')).toBe(0);
  });
});

const startServer = (timeoutMs: number) => startShutdownServer(timeoutMs, cleanups);

async function subscribeOver(url: string, signal?: AbortSignal) {
  const res = await fetch(`${url}/_mock/events`, { headers: { authorization: basic(KEY) }, signal });
  expect(res.status).toBe(200);
  const reader = new SseReader(res.body);
  expect(await reader.next()).toEqual({ comment: 'subscribed' });
  return reader;
}

describe('event stream over HTTP', () => {
  it('GET /_mock/events over a socket streams the events of requests made on another connection', async () => {
    const { url } = await startServer(5000);
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    const events = await subscribeOver(url, controller.signal);
    const created = await fetch(`${url}/v1/task/imageannotation`, {
      method: 'POST',
      headers: { authorization: basic(KEY), 'content-type': 'application/json' },
      body: JSON.stringify(imageRequest()),
    });
    const task = (await created.json()) as { task_id: string };
    const seen = await take(events, 2);
    expect(seen.map(([event]) => event)).toEqual(['task.created', 'request']);
    expect(seen[0]?.[1].task_id).toBe(task.task_id);
  });

  it('HEAD /_mock/events answers the stream headers and subscribes nothing, however often', async () => {
    const { app, url } = await startServer(5000);
    for (let i = 0; i < 2 * MAX_SUBSCRIBERS_PER_TENANT; i += 1) {
      const res = await fetch(`${url}/_mock/events`, { method: 'HEAD', headers: { authorization: basic(KEY) } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream');
    }
    expect(app.services.events.subscriberCount('test:acme')).toBe(0);
    const controller = new AbortController();
    cleanups.push(() => controller.abort());
    await subscribeOver(url, controller.signal);
  });

  it('GET /_mock/events: a client that disconnects frees its subscription', async () => {
    const { app, url } = await startServer(5000);
    const controller = new AbortController();
    await subscribeOver(url, controller.signal);
    expect(app.services.events.subscriberCount('test:acme')).toBe(1);
    controller.abort();
    await expect.poll(() => app.services.events.subscriberCount('test:acme')).toBe(0);
  });

  it('GET /_mock/events open at shutdown ends at once once the app is disposed, as the CLI does', async () => {
    const { app, url, shutdown } = await startServer(5000);
    const events = await subscribeOver(url);
    app.dispose();
    // Not forced: the stream ended before the 5 s timeout had to cut it.
    const result = await shutdown();
    expect(result.forced).toBe(false);
    expect(await events.ends(1000)).toBe(true);
  });

  it('GET /_mock/events open at shutdown holds it no longer than the timeout', async () => {
    const { url, shutdown } = await startServer(300);
    const events = await subscribeOver(url);
    // Forced: the timeout (300 ms) cut the stream rather than waiting on it.
    const result = await shutdown();
    expect(result.forced).toBe(true);
    expect(await events.ends(1000)).toBe(true);
  });
});

describe('event bus', () => {
  it('a subscriber that reads too slowly loses its oldest events and gets one dropped event', async () => {
    const bus = new EventBus(2, new HeldRequests(10), 3);
    const slow = bus.subscribe('test:acme');
    const fast = bus.subscribe('test:acme');
    if (typeof slow === 'string' || typeof fast === 'string') throw new Error('subscriptions refused');
    for (let n = 1; n <= 5; n += 1)
      bus.publish('test:acme', { type: 'batch.completed', time: `t${n}`, batch: `b${n}` });
    expect(bus.subscribe('test:acme')).toBe('tenant_limit');
    expect(await slow.next(10)).toEqual({ id: 0, event: { type: 'dropped', time: 't3', count: 2 } });
    expect(await slow.next(10)).toMatchObject({ id: 3, event: { batch: 'b3' } });
    expect(await fast.next(10)).toMatchObject({ event: { type: 'dropped', count: 2 } });
    expect(await slow.next(10)).toMatchObject({ id: 4, event: { batch: 'b4' } });
    expect(await slow.next(10)).toMatchObject({ id: 5, event: { batch: 'b5' } });
    expect(await slow.next(10)).toBe('idle');
    slow.close();
    expect(await slow.next(10)).toBe('closed');
    expect(bus.subscriberCount('test:acme')).toBe(1);
    bus.closeAll();
    expect(bus.subscriberCount('test:acme')).toBe(0);
    // Still watched: its events go on being numbered and kept for GET /_mock/wait's since.
    expect(bus.recentSince('test:acme', 3).map((item) => item.id)).toEqual([4, 5]);
  });

  it('a tenant is watched from its first subscription; past MAX_WATCHED_TENANTS the longest unwatched goes', () => {
    const bus = new EventBus(16, new HeldRequests(10));
    bus.publish('test:quiet', { type: 'batch.completed', time: 't', batch: 'b' });
    expect(bus.has('test:quiet')).toBe(false);
    bus.watch('test:first');
    for (let n = 0; n < MAX_WATCHED_TENANTS; n += 1) bus.watch(`test:t${n}`);
    expect(bus.has('test:first')).toBe(false);
    expect(bus.has('test:t0')).toBe(true);
  });

  it('subscriptions of all tenants together stop at the app-wide budget; a closed one gives its place back', () => {
    const bus = new EventBus(16, new HeldRequests(3));
    const taken = ['test:a', 'test:b', 'test:c'].map((key) => bus.subscribe(key));
    expect(bus.subscribe('test:d')).toBe('app_budget');
    const first = taken[0];
    if (typeof first === 'string' || first === undefined) throw new Error('subscription refused');
    first.close();
    first.close();
    expect(typeof bus.subscribe('test:d')).toBe('object');
    expect(bus.subscribe('test:e')).toBe('app_budget');
  });

  it('one tenant holds at most a quarter of the budget: at its share it is refused, others still subscribe', () => {
    const bus = new EventBus(16, new HeldRequests(8));
    expect([1, 2].map(() => typeof bus.subscribe('test:a'))).toEqual(['object', 'object']);
    expect(bus.subscribe('test:a')).toBe('tenant_share');
    expect(typeof bus.subscribe('test:b')).toBe('object');
  });
});
