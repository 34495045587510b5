import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach } from 'vitest';
import { createApp } from '../src/app.js';
import { basic, imageRequest } from './helpers.js';

/**
 * Stand-ins for the real service in the record and drift tests: labelmock itself, or labelmock made to differ
 * on purpose in five known ways. A recording of the second must drift by exactly those, of the first by none.
 */

export type Cleanups = (() => Promise<void> | void)[];

/** A list the calling test file fills with cleanups; they run, last first, after each test. */
export function cleanupsAfterEach(): Cleanups {
  const cleanups: Cleanups = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return cleanups;
}

type FetchHandler = (request: Request) => Response | Promise<Response>;

/** Serves `fetch` on a free port of 127.0.0.1 until the cleanups run; answers its base URL. */
export async function serveFetch(fetch: FetchHandler, cleanups: Cleanups): Promise<string> {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A fresh labelmock app as a fetch handler (disposed by the cleanups). */
export function labelmockService(cleanups: Cleanups): FetchHandler {
  const app = createApp({ config: { log: 'off' } });
  cleanups.push(() => app.dispose());
  return app.fetch;
}

/** The five ways the different service differs (what drift must find, and nothing else). */
export const DIFFERENCES = {
  dropped: 'work_started',
  retyped: 'priority',
  extra: 'surprise',
  renamedStatus: ['pending', 'queued'],
  throttled: 'GET /v1/tasks',
} as const;

function differ(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(differ);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = differ(inner);
  if (typeof out.task_id === 'string') {
    delete out[DIFFERENCES.dropped];
    if (typeof out[DIFFERENCES.retyped] === 'number') out[DIFFERENCES.retyped] = String(out[DIFFERENCES.retyped]);
    out[DIFFERENCES.extra] = true;
    if (out.status === DIFFERENCES.renamedStatus[0]) out.status = DIFFERENCES.renamedStatus[1];
  }
  return out;
}

/** labelmock with the DIFFERENCES: task objects changed in four ways, and every task list throttled (429). */
export function differentService(cleanups: Cleanups): FetchHandler {
  const inner = labelmockService(cleanups);
  return async (request) => {
    const url = new URL(request.url);
    if (`${request.method} ${url.pathname}` === DIFFERENCES.throttled) {
      const body = { status_code: 429, error: 'Too many requests: slow down' };
      return Response.json(body, { status: 429, headers: { 'retry-after': '1' } });
    }
    const answer = await inner(request);
    if (!(answer.headers.get('content-type') ?? '').includes('application/json')) return answer;
    const body = differ(await answer.json());
    const headers = new Headers(answer.headers);
    headers.delete('content-length');
    return new Response(JSON.stringify(body), { status: answer.status, headers });
  };
}

/** Through the recorder: a creation and reads; the task is completed on the target directly, as the service would. */
export async function scenario(proxy: string, target: string, key: string, body: unknown = imageRequest()) {
  const headers = { authorization: basic(key), 'content-type': 'application/json' };
  const send = (base: string, method: string, path: string, sent?: unknown) =>
    fetch(`${base}${path}`, { method, headers, ...(sent !== undefined && { body: JSON.stringify(sent) }) });
  const created = await (await send(proxy, 'POST', '/v1/task/imageannotation', body)).json();
  await send(proxy, 'GET', `/v1/task/${created.task_id}`);
  await send(target, 'POST', `/_mock/tasks/${created.task_id}/complete`, {});
  await send(proxy, 'GET', `/v1/task/${created.task_id}`);
  await send(proxy, 'GET', '/v1/tasks?limit=10');
  await send(proxy, 'GET', '/v1/task/000000000000000000000000');
  return created;
}
