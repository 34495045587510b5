import { createApp, type MockApp } from '../../src/app.js';
import type { OperationExamples } from '../../src/openapi/examples.js';
import { routeKey } from '../../src/openapi/operation-ids.js';
import { ManualClock } from '../../src/runtime/clock.js';
import { sequentialIds } from '../../src/runtime/ids.js';

interface Call {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
  form?: FormData;
}

/** A JSON answer; the scenario reads only ids from it. */
type Answer = Record<string, unknown>;

const KEY = 'test_docs';
const AUTH = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`;

/**
 * Sends requests to an app with a pinned clock and ids, and keeps the first successful exchange of
 * each operation (by `METHOD path`). Anything but a 200 is an error: examples are real answers.
 */
export class Recorder {
  readonly examples: OperationExamples = {};
  readonly clock = new ManualClock(Date.parse('2026-01-01T12:00:00.000Z'));
  // Callbacks go to a stand-in receiver that answers 200: examples never reach the network.
  readonly app: MockApp = createApp({
    clock: this.clock,
    ids: sequentialIds('5c84d0fe9585930000'),
    fetch: async () => new Response('ok', { status: 200 }),
  });

  async call(method: string, template: string, call: Call = {}): Promise<Answer> {
    const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(call.params?.[name] ?? ''));
    const headers: Record<string, string> = { authorization: AUTH };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    const res = await this.app.request(`${path}${call.query ? `?${call.query}` : ''}`, {
      method: method.toUpperCase(),
      headers,
      body: call.form ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    const type = res.headers.get('content-type') ?? '';
    // A callback attempt's duration_ms is wall-clock time: 0 keeps the examples the same on every run.
    const response = type.includes('json') ? JSON.parse(text, (k, v) => (k === 'duration_ms' ? 0 : v)) : text;
    const id = routeKey({ method: method.toLowerCase() as 'get', path: template });
    this.examples[id] ??= { ...(call.body !== undefined && { request: call.body }), response };
    return response;
  }
}
