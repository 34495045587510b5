import { randomBytes } from 'node:crypto';
import { createApp } from '../../app.js';
import { isRecord } from '../../domain/tasks/is-record.js';
import { urlOnOrigin } from '../same-origin-url.js';
import { type CallbackSink, startCallbackSink } from './callback-sink.js';
import { CALLBACK_OUTCOME_KEYS, compareAnswers, type Difference } from './compare.js';
import { type Exchange, jsonOrText, RecordingError } from './exchanges.js';
import { IdMap } from './ids.js';

/**
 * Replays a recording against a fresh tenant of labelmock, in order, and compares each answer with the
 * recorded one. State follows the recording: ids the real service minted are mapped to labelmock's as answers
 * come back, and a recorded read that shows a task completed or errored drives labelmock's task there first
 * (through /_mock, with the recorded response), since the real service finished it on its own.
 */

interface Answer {
  status: number;
  text: string;
}

/** Where drift sends the replayed requests: an app in process, or a running labelmock (--base-url). */
export interface DriftTarget {
  send(method: string, pathAndQuery: string, headers: Record<string, string>, body?: string): Promise<Answer>;
  close(): void;
}

export interface ExchangeReport {
  /** The exchange's position in the recording (0 first). */
  index: number;
  /** `GET /v1/task/{taskId}`: the documented operation, or the path when none is. */
  operation: string;
  differences: Difference[];
}

export function inProcessTarget(): DriftTarget {
  const app = createApp({ config: { log: 'off' } });
  return {
    async send(method, pathAndQuery, headers, body) {
      const res = await app.request(pathAndQuery, { method, headers, ...(body !== undefined && { body }) });
      return { status: res.status, text: await res.text() };
    },
    close: () => app.dispose(),
  };
}

export function remoteTarget(baseUrl: string): DriftTarget {
  const base = new URL(baseUrl);
  return {
    async send(method, pathAndQuery, headers, body) {
      // Only --base-url's origin: a recorded path never names another host or port.
      const url = urlOnOrigin(base, pathAndQuery);
      if (!(url instanceof URL)) throw new RecordingError(`not replayed: ${url.refused}`);
      const res = await fetch(url, { method, headers, ...(body !== undefined && { body }) });
      return { status: res.status, text: await res.text() };
    },
    close: () => {},
  };
}

/** A key no implementation of the interface accepts (it is not of the `test_`/`live_` form): a refused key. */
const REFUSED = { authorization: `Basic ${Buffer.from('refused key:').toString('base64')}` };

/**
 * The credentials to replay an exchange with. A recorded 401 is replayed as it was refused: without credentials
 * when the recording shows none, else with a key that is refused. Any other exchange was accepted, so it goes
 * with drift's own key (recordings often filter the Authorization header out).
 */
function credentialsFor(exchange: Exchange, auth: Record<string, string>): Record<string, string> {
  if (exchange.status !== 401) return auth;
  return exchange.sentCredentials ? REFUSED : {};
}

/** Task objects an answer shows: itself, or the items of its list (docs, tasks). */
function tasksIn(answer: unknown): Record<string, unknown>[] {
  if (!isRecord(answer)) return [];
  if (typeof answer.task_id === 'string') return [answer];
  return [answer.docs, answer.tasks].flatMap((list) => (Array.isArray(list) ? list.filter(isRecord) : []));
}

export async function replay(
  exchanges: readonly Exchange[],
  target: DriftTarget,
  templateOf: (method: string, path: string) => string | undefined,
  { keepCallbackUrls = false } = {},
): Promise<ExchangeReport[]> {
  const ids = new IdMap();
  const sink = keepCallbackUrls ? undefined : await startCallbackSink(ids);
  try {
    return await replayAll(exchanges, target, templateOf, ids, sink);
  } finally {
    sink?.close();
  }
}

async function replayAll(
  exchanges: readonly Exchange[],
  target: DriftTarget,
  templateOf: (method: string, path: string) => string | undefined,
  ids: IdMap,
  sink: CallbackSink | undefined,
): Promise<ExchangeReport[]> {
  // A fresh tenant of its own: a running server's other tenants are left alone, and its own state is empty.
  const key = `test_drift_${randomBytes(6).toString('hex')}`;
  const auth = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  const driven = new Set<string>();

  /** Moves labelmock's task to where the recording shows the real one (completed or errored). */
  async function driveTo(task: Record<string, unknown>): Promise<void> {
    const id = typeof task.task_id === 'string' ? ids.mockOf(task.task_id) : undefined;
    const move = task.status === 'completed' ? 'complete' : task.status === 'error' ? 'fail' : undefined;
    if (!id || !move || driven.has(`${id} ${move}`)) return;
    driven.add(`${id} ${move}`);
    const path = `/_mock/tasks/${encodeURIComponent(id)}/${move}`;
    const json = { ...auth, 'content-type': 'application/json' };
    const given = move === 'complete' && task.response !== undefined ? { response: task.response } : {};
    const done = await target.send('POST', path, json, JSON.stringify(given));
    // A recorded response labelmock's task type does not take: completed with its own, so the status matches.
    if (done.status >= 400 && Object.keys(given).length > 0) await target.send('POST', path, json, '{}');
  }

  const reports: ExchangeReport[] = [];
  for (const [index, exchange] of exchanges.entries()) {
    for (const task of tasksIn(exchange.answer)) await driveTo(task);
    const path = ids.substitute(exchange.path);
    const query = new URLSearchParams(exchange.query.map(([name, value]) => [name, ids.substitute(value)]));
    const headers: Record<string, string> = {
      ...credentialsFor(exchange, auth),
      ...(exchange.contentType && { 'content-type': exchange.contentType }),
    };
    const substituted = exchange.body === undefined ? undefined : ids.substitute(exchange.body);
    const body = sink ? sink.rewrite(substituted, exchange.contentType) : substituted;
    const answer = await target.send(exchange.method, query.size > 0 ? `${path}?${query}` : path, headers, body);
    const mock = jsonOrText(answer.text);
    ids.learn(exchange.answer, mock);
    const operation = `${exchange.method} ${templateOf(exchange.method, path) ?? path}`;
    const differences: Difference[] =
      answer.status === exchange.status
        ? compareAnswers(exchange.answer, mock, ids, sink ? CALLBACK_OUTCOME_KEYS : undefined)
        : [{ kind: 'status', path: '', recorded: String(exchange.status), mock: String(answer.status) }];
    reports.push({ index, operation, differences });
  }
  return reports;
}
