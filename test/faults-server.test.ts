import { once } from 'node:events';
import type { Server } from 'node:http';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, expect, it, vi } from 'vitest';
import { type CreateAppOptions, createApp, type MockApp } from '../src/app.js';
import { gracefulShutdown } from '../src/http/shutdown.js';
import { basic, KEY } from './helpers.js';
import { SseReader } from './sse-reader.js';

/** Connection faults need a socket: these run the app on a real server. */
const running: { server: Server; app: MockApp }[] = [];

async function start(options: CreateAppOptions = {}) {
  const app = createApp(options);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  const shutdown = gracefulShutdown(server, 10_000);
  running.push({ server, app });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init: RequestInit = {}) =>
    fetch(`${base}${path}`, {
      ...init,
      headers: { authorization: basic(KEY), 'content-type': 'application/json', ...init.headers },
    });
  const addRule = async (body: Record<string, unknown>) => {
    const res = await request('/_mock/faults', { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(200);
  };
  return { app, server, base, request, addRule, shutdown };
}

/** The error code a plain node:http GET ends with (ECONNRESET for a reset), or its status. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<string | number> {
  return new Promise((resolve) => {
    get(url, { headers: { authorization: basic(KEY), ...headers } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** Resolves once the app holds `count` delayed or hanging requests. */
const held = (app: MockApp, count = 1) => expect.poll(() => app.services.events.held.count).toBe(count);

afterEach(() => {
  vi.restoreAllMocks();
  for (const { server, app } of running.splice(0)) {
    server.closeAllConnections();
    server.close();
    app.dispose();
  }
});

it('GET /v1/tasks matching a reset rule drops the connection (ECONNRESET); the server keeps serving', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const s = await start();
  await s.addRule({ path: '/v1/tasks', fault: 'reset', times: 1 });
  expect(await rawGet(`${s.base}/v1/tasks`)).toBe('ECONNRESET');
  expect((await s.request('/v1/tasks')).status).toBe(200);
  expect(logged).not.toHaveBeenCalled();
});

it('GET /v1/tasks with Labelmock-Fault: fault=reset makes fetch fail with ECONNRESET', async () => {
  const s = await start();
  const failure = await s.request('/v1/tasks', { headers: { 'Labelmock-Fault': 'fault=reset' } }).then(
    () => undefined,
    (err: Error & { cause?: { code?: string } }) => err.cause?.code,
  );
  expect(failure).toBe('ECONNRESET');
});

it('GET /v1/tasks matching a hang rule gets no answer until the client aborts; the server keeps serving', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  const s = await start();
  await s.addRule({ path: '/v1/tasks', fault: 'hang', times: 1 });
  const abort = new AbortController();
  let outcome = 'pending';
  const pending = s.request('/v1/tasks', { signal: abort.signal }).then(
    (res) => {
      outcome = `answered ${res.status}`;
    },
    (err: Error) => {
      outcome = err.name;
    },
  );
  await held(s.app);
  expect(outcome).toBe('pending');
  abort.abort();
  await pending;
  expect(outcome).toBe('AbortError');
  expect((await s.request('/v1/tasks')).status).toBe(200);
  // The hang has ended (its held place given back) without an error logged.
  await held(s.app, 0);
  expect(logged).not.toHaveBeenCalled();
});

it('a hanging GET /v1/tasks does not hold up shutdown: the connection is dropped at once', async () => {
  const s = await start();
  await s.addRule({ path: '/v1/tasks', fault: 'hang' });
  const hanging = rawGet(`${s.base}/v1/tasks`);
  await held(s.app);
  // As src/cli.ts does on SIGTERM: dispose the app, then shut the server down. Not forced: the hang
  // ended before the 10 s deadline had to cut it.
  s.app.dispose();
  expect(await s.shutdown()).toEqual({ forced: false });
  expect(await hanging).toBe('ECONNRESET');
});

it('a GET /v1/tasks delayed by --latency does not hold up shutdown: it is answered at once', async () => {
  const s = await start({ config: { latency: { minMs: 60_000, maxMs: 60_000 } } });
  const delayed = rawGet(`${s.base}/v1/tasks`);
  await held(s.app);
  s.app.dispose();
  expect(await s.shutdown()).toEqual({ forced: false });
  expect(await delayed).toBe(200);
});

it('creations whose clients left during a delay change nothing and are journaled as dropped (499)', async () => {
  const s = await start();
  await s.addRule({ method: 'POST', path: '/v1/task/imageannotation', delay_ms: 60_000 });
  const reader = new SseReader((await s.request('/_mock/events')).body);
  await reader.next();
  const count = 5;
  for (let i = 0; i < count; i += 1) {
    const abort = new AbortController();
    const body = JSON.stringify({ instruction: 'x', attachment: 'https://example.com/a.png', geometries: { box: {} } });
    const received = once(s.server, 'request');
    const sent = s
      .request('/v1/task/imageannotation', { method: 'POST', body, signal: abort.signal })
      .catch((err: Error) => err.name);
    await received;
    abort.abort();
    expect(await sent).toBe('AbortError');
  }
  const requests: unknown[] = [];
  while (requests.length < count) {
    const message = await reader.nextEvent();
    if (message.event === 'request') requests.push(message.data);
  }
  expect(requests).toMatchObject(Array(count).fill({ status: 499 }));
  expect((await (await s.request('/v1/tasks')).json()).docs).toEqual([]);
  const journal = await (await s.request('/_mock/requests?method=POST')).json();
  expect(journal.requests.map((r: { fault: unknown }) => r.fault)).toEqual(
    Array(count).fill({ rule_id: expect.any(String), delay_ms: 60_000, client_gone: true }),
  );
});
