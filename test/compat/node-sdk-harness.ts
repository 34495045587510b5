import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/app.js';
import type { Config } from '../../src/config/index.js';
import { basic } from '../helpers.js';

/**
 * Shared by the Node SDK (npm `scaleapi` 2.3.2) compatibility tests: a real labelmock HTTP server
 * on a free port, the SDK pointed at it by the same preload users get, and promise wrappers for
 * the SDK's callbacks. The SDK ships no types, so the few shapes used here are declared below.
 */

export const cjsRequire = createRequire(import.meta.url);
export const PRELOAD = cjsRequire.resolve('./point-scaleapi-node.cjs');

export interface ScaleError extends Error {
  errcode?: number;
}
export type Callback<T> = (err: ScaleError | null, value?: T) => void;
export interface SdkTask {
  id: string;
  task_id: string;
  status: string;
  type: string;
  [field: string]: unknown;
  refresh(cb: Callback<SdkTask>): void;
  cancel(cb: Callback<SdkTask>): void;
}
export interface SdkTaskList {
  docs: SdkTask[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}
export interface SdkClient {
  fetchTask(id: string, cb: Callback<SdkTask>): void;
  cancelTask(id: string, cb: Callback<SdkTask>): void;
  tasks(params: Record<string, unknown>, cb: Callback<SdkTaskList>): void;
  createTask(type: string, params: object, cb: Callback<SdkTask>): void;
  [generated: string]: unknown;
}
export interface ScaleApi {
  ScaleClient: new (apiKey: string) => SdkClient;
  ScaleException: new (message?: string, errcode?: number) => ScaleError;
  ScaleInvalidRequest: new (message?: string) => ScaleError;
}

/** A fresh tenant: every new `test_<name>` key is an empty account, so files never see each other's tasks. */
export const freshKey = (name: string) => `test_${name}_${randomBytes(6).toString('hex')}`;

export interface Mock {
  /** What LABELMOCK_URL gets: the origin, since the SDK's paths already start with /v1/. */
  origin: string;
  close(): Promise<void>;
}

/** `before` may hold a request (the own-tests file uses it); everything else goes straight to the app. */
export async function startMock(config: Partial<Config> = {}, before?: (req: Request) => Promise<void>): Promise<Mock> {
  const app = createApp({ config });
  const fetch = async (req: Request) => {
    await before?.(req);
    return app.fetch(req);
  };
  const server = await new Promise<Server>((resolve) => {
    // Plain HTTP/1.1 here, so the node-server's ServerType is an http.Server.
    const s = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        app.dispose();
        server.closeAllConnections(); // the SDK's keep-alive sockets would otherwise hold close() open
        server.close(() => resolve());
      }),
  };
}

/** Loads the preload (the documented way in) and then the SDK, in this process. */
export function loadSdk(mock: Mock): ScaleApi {
  process.env.LABELMOCK_URL = mock.origin; // read on every SDK call, so setting it after loading is fine
  cjsRequire(PRELOAD);
  return cjsRequire('scaleapi') as ScaleApi;
}

/** The SDK's raw answers as they came off the wire, newest last: its errors keep only message and status. */
export function tapAnswers(): Array<{ status: number; body: unknown }> {
  const sdkDir = dirname(cjsRequire.resolve('scaleapi'));
  const request = cjsRequire(cjsRequire.resolve('request', { paths: [sdkDir] })) as Record<string, unknown>;
  const answers: Array<{ status: number; body: unknown }> = [];
  for (const method of ['get', 'post'] as const) {
    const inner = request[method] as (opts: unknown, cb: (...a: unknown[]) => void) => unknown;
    request[method] = (opts: unknown, cb: (err: unknown, res?: { statusCode: number }, body?: unknown) => void) =>
      inner.call(request, opts, (err, res, body) => {
        if (res) answers.push({ status: (res as { statusCode: number }).statusCode, body });
        cb(err, res as { statusCode: number }, body);
      });
  }
  return answers;
}

/** Runs an SDK call and resolves with its value; a ScaleException rejects. Later callbacks are ignored. */
export function ok<T>(run: (cb: Callback<T>) => void): Promise<T> {
  return new Promise((resolve, reject) => run((err, value) => (err ? reject(err) : resolve(value as T))));
}

/** Runs an SDK call that must fail and resolves with its error; a success rejects. */
export function refused(run: (cb: Callback<unknown>) => void): Promise<ScaleError> {
  return new Promise((resolve, reject) =>
    run((err) => (err ? resolve(err) : reject(new Error('the SDK call succeeded; it should have been refused')))),
  );
}

/** A control-plane call (`/_mock/...`) with the tenant's key, for what the public API cannot do. */
export async function control(mock: Mock, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${mock.origin}/_mock${path}`, {
    method,
    headers: {
      authorization: basic(key),
      'content-type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
