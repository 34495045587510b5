import type { AnswerOf } from './answers.js';
import { eventually } from './eventually.js';
import { expectStatus, fail, show } from './expect.js';
import type { Client } from './target.js';

/**
 * Helpers over the request journal (GET /_mock/requests): what the implementation received, to
 * assert on what an app sent. Callers check `needControlPlane` first; a target without the route
 * skips at the first call.
 */

export interface JournalQuery {
  method?: string;
  /** Exact, or a glob: `*` within one segment, `**` across segments. */
  path?: string;
  status?: number;
  /** An entry id: only entries recorded after it. */
  since?: string;
  limit?: number;
}

/** What a journaled request must show; `body` and `response_body` match when they hold at least these fields. */
export interface ExpectedRequest {
  method: string;
  path: string;
  body?: unknown;
  status?: number;
  response_body?: unknown;
}

/** One journaled request (GET /_mock/requests), as the control-plane document describes it. */
export type JournalEntry = Extract<AnswerOf<'get', '/_mock/requests'>, { requests: unknown }>['requests'][number];

/** The journal's entries that pass the query, newest first. */
export async function journaledRequests(client: Client, query: JournalQuery = {}): Promise<JournalEntry[]> {
  const res = await client.get('/_mock/requests', { query: { ...query } });
  expectStatus(res, 200);
  // The document's other answer is the HAR form (?format=har), which this query does not ask for.
  if (!('requests' in res.body) || !Array.isArray(res.body.requests))
    fail(`${res.request}: expected {requests: [...]}, got ${show(res.body)}`);
  return res.body.requests;
}

/** The newest entry's id, to pass as `since` (undefined while the journal is empty). */
export async function latestRequestId(client: Client): Promise<string | undefined> {
  const [newest] = await journaledRequests(client, { limit: 1 });
  return newest?.id;
}

/**
 * Waits until the journal holds a request like `expected` (recorded after `since`, when given) and
 * answers it; fails naming what was received instead.
 */
export async function expectRequestReceived(
  client: Client,
  expected: ExpectedRequest,
  since?: string,
): Promise<JournalEntry> {
  const query = { method: expected.method, path: expected.path, since };
  // Once outside the polling: a target without the route skips here rather than after the wait.
  let seen = await journaledRequests(client, query);
  const found = await eventually(async () => {
    const entry = seen.find((candidate) => isRequestLike(candidate, expected));
    if (entry) return entry;
    seen = await journaledRequests(client, query);
    throw new NotYet();
  }).catch((err: unknown) => {
    if (err instanceof NotYet) return undefined;
    throw err;
  });
  if (found) return found;
  const received = seen.map((entry) => `${entry.method} ${entry.path} ${entry.status} ${show(entry.body)}`);
  return fail(`no journaled request like ${show(expected)}; received: ${received.join('; ') || 'none'}`);
}

class NotYet extends Error {}

function isRequestLike(entry: JournalEntry, expected: ExpectedRequest): boolean {
  if (entry?.method !== expected.method.toUpperCase() || entry.path !== expected.path) return false;
  if (expected.status !== undefined && entry.status !== expected.status) return false;
  if (expected.body !== undefined && !holds(entry.body, expected.body)) return false;
  return expected.response_body === undefined || holds(entry.response_body, expected.response_body);
}

/** Whether `actual` holds `expected`: objects at least its fields (recursively), arrays and values equal. */
function holds(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => holds(actual[i], item))
    );
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const fields = actual as Record<string, unknown>;
    return Object.entries(expected).every(([key, value]) => holds(fields[key], value));
  }
  return Object.is(actual, expected);
}
