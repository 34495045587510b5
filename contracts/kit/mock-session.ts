import { type EventStream, subscribe } from './events.js';
import { expectStatus, fail, show } from './expect.js';
import type { FaultRule } from './faults.js';
import {
  type ExpectedRequest,
  expectRequestReceived,
  type JournalEntry,
  type JournalQuery,
  journaledRequests,
  latestRequestId,
} from './journal.js';
import { Client, type Target } from './target.js';

/**
 * The journal, event and fault helpers of the contracts, for an app's own tests: point it at the
 * mock (or an app built with createApp, through `fetch`) with the key the app under test uses.
 */
export interface MockSessionOptions {
  baseUrl: string;
  apiKey: string;
  /** The in-process app's fetch (`(url, init) => app.request(url, init)`), or the global fetch by default. */
  fetch?: (url: string, init?: RequestInit) => Response | Promise<Response>;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
}

export class MockSession {
  /** Plain calls as the key: `get`, `post`, `put`, `patch`, `delete` answer `{status, body, headers}`. */
  readonly client: Client;
  private readonly target: Target;

  constructor(options: MockSessionOptions) {
    const given = options.fetch;
    const send: typeof fetch = given
      ? async (input, init) => given(input instanceof Request ? input.url : String(input), init)
      : fetch;
    this.target = { baseUrl: options.baseUrl, apiKey: options.apiKey, fetch: send };
    if (options.timeoutMs !== undefined) this.target.timeoutMs = options.timeoutMs;
    this.client = new Client(this.target, options.apiKey);
  }

  /** The journaled requests that pass `query`, newest first. */
  requests(query: JournalQuery = {}): Promise<JournalEntry[]> {
    return journaledRequests(this.client, query);
  }

  /** The newest journal entry's id: pass it as `since` to look only at what comes after. */
  latestRequestId(): Promise<string | undefined> {
    return latestRequestId(this.client);
  }

  /** Waits (5 s) for a request like `expected` (its body holding at least those fields); throws naming what came. */
  expectRequestReceived(expected: ExpectedRequest, since?: string): Promise<JournalEntry> {
    return expectRequestReceived(this.client, expected, since);
  }

  /** Subscribes to the tenant's events; `waitFor(type, matches?)` on it, then `close()`. */
  events(): Promise<EventStream> {
    return subscribe(this.target, this.target.apiKey);
  }

  /** Adds a fault rule (POST /_mock/faults) and answers it with its id. */
  async addFault(rule: Record<string, unknown>): Promise<FaultRule> {
    const res = await this.client.post('/_mock/faults', rule);
    expectStatus(res, 200);
    const added = res.body as Partial<FaultRule> | null;
    if (typeof added?.id !== 'string') fail(`${res.request}: expected a fault rule with an id, got ${show(added)}`);
    return added as FaultRule;
  }

  /** Removes every fault rule of the tenant. */
  async clearFaults(): Promise<void> {
    expectStatus(await this.client.delete('/_mock/faults'), 200);
  }
}
