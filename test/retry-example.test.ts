/**
 * The README's example: testing an app's retry logic against a 503 fault rule. `getWithRetry` stands for
 * the app's own client code; the mock runs as a real server, as it would for the app.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { basic } from './helpers.js';

const KEY = 'test_retry_example';
const auth = { authorization: basic(KEY) };

/** The app's code under test: retries 429 and 5xx, waiting Retry-After seconds (capped for the test). */
async function getWithRetry(url: string, { attempts = 4, maxWaitMs = 50 } = {}) {
  let tries = 0;
  for (;;) {
    tries += 1;
    const res = await fetch(url, { headers: auth });
    const retryable = res.status === 429 || res.status >= 500;
    if (!retryable || tries === attempts) return { res, tries };
    const retryAfterMs = Number(res.headers.get('retry-after') ?? '0') * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfterMs, maxWaitMs)));
  }
}

const app = createApp();
let server: Server;
let base = '';
beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  app.dispose();
});

/** POST /_mock/faults: the rule, for the test's key. */
async function addFault(rule: Record<string, unknown>) {
  const res = await fetch(`${base}/_mock/faults`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: string };
}

it('GET /v1/tasks through a retrying client recovers after a times: 2 503 rule, on the third try', async () => {
  const rule = await addFault({ method: 'GET', path: '/v1/tasks', status: 503, times: 2 });
  const { res, tries } = await getWithRetry(`${base}/v1/tasks`);
  expect(res.status).toBe(200);
  expect(tries).toBe(3);
  // The rule fired twice and has no firings left.
  const list = await (await fetch(`${base}/_mock/faults`, { headers: auth })).json();
  expect(list.faults).toEqual([expect.objectContaining({ id: rule.id, fired: 2, remaining: 0 })]);
  await fetch(`${base}/_mock/faults`, { method: 'DELETE', headers: auth });
});

it('GET /v1/tasks through a retrying client gives up after 4 tries against a 503 rule without times', async () => {
  await addFault({ method: 'GET', path: '/v1/tasks', status: 503 });
  const { res, tries } = await getWithRetry(`${base}/v1/tasks`);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('1');
  expect(tries).toBe(4);
  await fetch(`${base}/_mock/faults`, { method: 'DELETE', headers: auth });
});
