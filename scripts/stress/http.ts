import { Worker } from 'node:worker_threads';

/** HTTP helpers of the stress script: keyed requests with a deadline, and a latency sampler. */

export const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

export interface Answer {
  status: number;
  body: any;
  ms: number;
}

/** Any failure (refused, reset, timeout) is status 0 with the reason as body: the script never stops on one. */
export async function call(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(base + path, {
      method,
      headers: {
        authorization: auth(key),
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, ms: performance.now() - started };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    return { status: 0, body: cause ?? (err as Error).name, ms: performance.now() - started };
  }
}

/** Runs `fn` over `items` with at most `width` at once; answers in order. */
export async function pool<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      // biome-ignore lint/style/noNonNullAssertion: index < items.length (checked by the loop)
      out[index] = await fn(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

export interface Latency {
  count: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * The sampler runs in a worker thread, so the stress script's own work (reading a 105 MB export,
 * sending an 80 MB upload) does not delay its requests: what it measures is the server.
 */
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const { request } = require('node:http');
const { base, key } = workerData;
const times = [];
let failed = 0;
let running = true;
parentPort.on('message', () => { running = false; });
const get = () => new Promise((resolve) => {
  const options = { agent: false, headers: { authorization: key }, timeout: 10000 };
  const req = request(base + '/v1/tasks?limit=5', options, (res) => {
    res.resume();
    res.once('end', () => resolve(res.statusCode));
    res.once('error', () => resolve(0));
  });
  req.once('timeout', () => req.destroy());
  req.once('error', () => resolve(0));
  req.end();
});
(async () => {
  while (running || times.length === 0) {
    const started = performance.now();
    if ((await get()) !== 200) failed += 1;
    times.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  parentPort.postMessage({ times, failed });
})();
`;

/**
 * Another tenant's point of view: one small GET after the other (a 5 ms pause between), each on a
 * new connection as another client would open, while `during` runs (at least one), then the
 * latency figures. A server out of descriptors cannot accept these: they fail.
 */
export async function sampleLatency<T>(
  base: string,
  during: () => Promise<T>,
): Promise<{ result: T; latency: Latency }> {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { base, key: auth('test_stress_bystander') } });
  const report = new Promise<{ times: number[]; failed: number }>((resolve) => worker.once('message', resolve));
  await new Promise((resolve) => worker.once('online', resolve));
  try {
    const result = await during();
    worker.postMessage('stop');
    const { times, failed } = await report;
    return { result, latency: summarize(times, failed) };
  } finally {
    await worker.terminate();
  }
}

function summarize(times: number[], failed: number): Latency {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { count: times.length, failed, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

export const fmtMs = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`);
export const fmtLatency = (l: Latency) =>
  `others' GET p50 ${fmtMs(l.p50)}, p99 ${fmtMs(l.p99)}, max ${fmtMs(l.max)} (${l.count} sampled, ${l.failed} failed)`;
export const fmtBytes = (n: number) =>
  Number.isNaN(n)
    ? 'n/a'
    : Math.abs(n) >= 1e6
      ? `${(n / 1e6).toFixed(1)} MB`
      : Math.abs(n) >= 1e3
        ? `${(n / 1e3).toFixed(1)} kB`
        : `${Math.round(n)} B`;
/** A heap change with its sign: "+3.1 MB", "-910.5 kB". */
export const fmtDelta = (n: number) => `${n < 0 ? '-' : '+'}${fmtBytes(Math.abs(n))}`;
