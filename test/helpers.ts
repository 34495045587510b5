import { expect } from 'vitest';
import { basicAuth } from '../contracts/kit/target.js';
import { type CreateAppOptions, createApp, type MockApp } from '../src/app.js';
import { fixture } from '../src/fixtures.js';
import { ManualClock } from '../src/runtime/clock.js';
import { sequentialIds } from '../src/runtime/ids.js';

export interface TestApp {
  app: MockApp;
  clock: ManualClock;
  /** Sends a request as `key` (HTTP Basic, key as user name) and parses the JSON answer. */
  call(
    method: string,
    path: string,
    options?: { key?: string | null; body?: unknown; raw?: string; headers?: Record<string, string> },
  ): Promise<{
    status: number;
    body: any;
    headers: Headers;
  }>;
}

export const KEY = 'test_acme';

/** `value`, or a failed test naming what is missing (an element a list should hold). */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/** The Basic header of a key (the key as user name, no password): the kit's, one home for both. */
export const basic = basicAuth;

/** A fresh app with a pinned clock and predictable ids. */
/**
 * An app whose tenants refuse undeclared parameters (--unknown-params strict): the rejection tables check that
 * each wrong body is a 400 naming its field, unknown keys included. The lenient default: test/lenience.test.ts.
 */
export const STRICT: CreateAppOptions = { config: { unknownParams: 'strict' } };

export function makeApp(options: CreateAppOptions = {}): TestApp {
  const clock = new ManualClock();
  const app = createApp({ clock, ids: sequentialIds(), ...options });
  return {
    app,
    clock,
    async call(method, path, { key = KEY, body, raw, headers = {} } = {}) {
      const init: RequestInit = {
        method,
        headers: {
          'content-type': 'application/json',
          ...(key !== null && { authorization: basic(key) }),
          ...headers,
        },
      };
      if (raw !== undefined) init.body = raw;
      else if (body !== undefined) init.body = JSON.stringify(body);
      const res = await app.request(path, init);
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
  };
}

/** The committed valid imageannotation request, with overrides applied at the top level. */
export function imageRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...fixture<Record<string, unknown>>('tasks/imageannotation.create.json'), ...overrides };
}

export async function createImageTask(t: TestApp, overrides: Record<string, unknown> = {}, key = KEY) {
  const res = await t.call('POST', '/v1/task/imageannotation', { key, body: imageRequest(overrides) });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** `count` image tasks, one a second apart on the pinned clock (so created_at orders them); their ids, oldest first. */
export async function seedImageTasks(
  t: TestApp,
  count: number,
  overrides: (i: number) => Record<string, unknown> = () => ({}),
) {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    ids.push((await createImageTask(t, overrides(i))).task_id);
    t.clock.advance(1000);
  }
  return ids;
}

/**
 * Reads a streamed answer piece by piece; `between` runs once after the second piece (another client's
 * request, answered while the stream is still being written). Answers the text, the pieces and what
 * `between` gave.
 */
export async function readInPieces<T>(
  res: Response,
  between: () => Promise<T>,
): Promise<{ text: string; pieces: number; answered: T | undefined }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  let pieces = 0;
  let answered: T | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, pieces, answered };
    pieces += 1;
    text += decoder.decode(value, { stream: true });
    if (pieces === 2) answered = await between();
  }
}

/**
 * A completed task as its type's rules read it: for a type whose results come as a file (lidarannotation), the
 * response linked in `response.annotations.url` is fetched, as a client would (a plain GET, no key).
 */
export async function withResultFile(t: TestApp, task: any): Promise<any> {
  const url = task?.response?.annotations?.url;
  if (typeof url !== 'string') return task;
  const res = await t.app.request(new URL(url).pathname);
  expect(res.status).toBe(200);
  // The file is the list of frames (the response's annotations).
  return { ...task, response: { annotations: await res.json() } };
}
