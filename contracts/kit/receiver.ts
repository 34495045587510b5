import type { AnswerOf } from './answers.js';
import type { ContractContext } from './contract.js';
import { eventually } from './eventually.js';
import { asObject, expectEqual, expectStatus, expectTrue, present, setupStep, show } from './expect.js';
import { type Answer, listenReceiver, type ReceivedCallback } from './receiver-server.js';
import { defaultWaitMs } from './run-scope.js';
import type { Client } from './target.js';

/**
 * Callback receivers and the /_mock helpers around callbacks. A receiver is an HTTP server on
 * 127.0.0.1 started inside the contract, so the target has to run on this machine (in process or a
 * local server) to reach it; contracts never send callbacks anywhere else.
 */

export type { Answer, ReceivedCallback } from './receiver-server.js';

export interface Receiver {
  url: string;
  /** Every request, in arrival order. */
  received: ReceivedCallback[];
  /** How many held ('hang') requests are still open: neither answered nor dropped by the sender. */
  holding(): number;
  /** Waits until at least `count` requests have arrived and answers all that came. */
  waitForRequests(count: number, options?: { timeoutMs?: number }): Promise<ReceivedCallback[]>;
  /** Waits for the `n`-th request (1-based) and answers it. */
  waitForRequest(n: number, options?: { timeoutMs?: number }): Promise<ReceivedCallback>;
  /** Drops held requests and stops listening; also run by the contract's cleanup (closing twice is fine). */
  close(): Promise<void>;
}

/**
 * Starts a receiver whose n-th request (0-based) gets `script[n]`, and every later one `then`.
 * It is closed by `ctx.defer`, so a failing contract never leaves a server or a held request behind.
 */
export async function startReceiver(
  ctx: ContractContext,
  script: readonly Answer[] = [],
  then: Answer = 200,
): Promise<Receiver> {
  const server = await listenReceiver((n) => script[n] ?? then);
  const { url, received, close } = server;
  ctx.defer(close);
  const waitForRequests: Receiver['waitForRequests'] = (count, options = {}) =>
    eventually(
      async () => {
        expectTrue(
          received.length >= count,
          `receiver ${url}: expected ${count} callback request(s), got ${received.length} ` +
            `(the target must be able to reach 127.0.0.1)`,
        );
        return received.slice();
      },
      { timeoutMs: options.timeoutMs ?? defaultWaitMs() },
    );
  return {
    url,
    received,
    holding: server.holding,
    close,
    waitForRequests,
    waitForRequest: async (n, options) =>
      present((await waitForRequests(n, options))[n - 1], `receiver ${url}: callback request ${n}`),
  };
}

/**
 * A received task callback read as the interface describes it (`{task_id, status, response, task}`): its body
 * and its task, each checked to be a JSON object; the fields are the caller's to check.
 */
export function taskCallbackOf(
  call: ReceivedCallback | undefined,
  what: string,
): { body: Record<string, unknown>; task: Record<string, unknown> } {
  const body = asObject(present(call, what).body, `${what} body`);
  return { body, task: asObject(body.task, `${what} body.task`) };
}

/** A loopback URL nobody listens on any more: a receiver started and closed at once. */
export async function refusedUrl(ctx: ContractContext): Promise<string> {
  const receiver = await startReceiver(ctx);
  await receiver.close();
  return receiver.url;
}

/** One delivery of the callback journal, as the control-plane document describes it. */
export type Delivery = AnswerOf<'get', '/_mock/callbacks'>['deliveries'][number];

/** The delivery journal of `GET /_mock/callbacks`, filtered by task or batch. */
export async function callbackJournal(
  client: Client,
  query: { task_id?: string; batch?: string },
): Promise<Delivery[]> {
  const res = await client.get('/_mock/callbacks', { query });
  expectStatus(res, 200);
  expectTrue(
    Array.isArray(res.body?.deliveries),
    `${res.request}: expected {deliveries: [...]}, got ${show(res.body)}`,
  );
  return res.body.deliveries;
}

/** Polls the journal until the first delivery of `query` is in `state`; answers that delivery. */
export async function deliveryEventually(
  client: Client,
  query: { task_id?: string; batch?: string },
  state: Delivery['state'],
): Promise<Delivery> {
  const [delivery] = await journalEventually(client, query, (d) => expectEqual(d[0]?.state, state, 'journal state'));
  return present(delivery, `the delivery of ${JSON.stringify(query)}`);
}

/** Polls the journal until the deliveries of `query` pass `check`; answers them. */
export function journalEventually(
  client: Client,
  query: { task_id?: string; batch?: string },
  check: (deliveries: Delivery[]) => void,
): Promise<Delivery[]> {
  return eventually(async () => {
    const deliveries = await callbackJournal(client, query);
    check(deliveries);
    return deliveries;
  });
}

export interface CallbackSettingsPatch {
  callback_auth_key?: string;
  callbacks?: { max_attempts?: number; retry_scale?: number; timeout_ms?: number };
}

/** A tenant's settings, as PATCH /_mock/settings answers them. */
type Settings = AnswerOf<'patch', '/_mock/settings'>;

/** Changes callback settings for this contract only: the values it touches are restored afterwards. */
export function useCallbackSettings(
  ctx: ContractContext,
  patch: CallbackSettingsPatch,
  client: Client = ctx.api,
): Promise<Settings> {
  return setupStep('change callback settings through PATCH /_mock/settings', () =>
    setCallbackSettings(ctx, patch, client),
  );
}

async function setCallbackSettings(
  ctx: ContractContext,
  patch: CallbackSettingsPatch,
  client: Client,
): Promise<Settings> {
  const before = await client.get('/_mock/settings');
  expectStatus(before, 200);
  const previous: Record<string, unknown> = {};
  if (patch.callback_auth_key !== undefined) previous.callback_auth_key = before.body.callback_auth_key;
  if (patch.callbacks !== undefined) previous.callbacks = before.body.callbacks;
  ctx.defer(async () => {
    const restored = await client.patch('/_mock/settings', previous);
    expectStatus(restored, 200);
    const settings: Record<string, unknown> = restored.body;
    for (const [key, value] of Object.entries(previous)) expectEqual(settings[key], value, `restored setting ${key}`);
  });
  const res = await client.patch('/_mock/settings', patch);
  expectStatus(res, 200);
  if (patch.callback_auth_key !== undefined)
    expectEqual(res.body.callback_auth_key, patch.callback_auth_key, `${res.request} callback_auth_key`);
  const callbacks: Record<string, unknown> = res.body.callbacks;
  for (const [key, value] of Object.entries(patch.callbacks ?? {}))
    expectEqual(callbacks[key], value, `${res.request} callbacks.${key}`);
  return res.body;
}
