/**
 * A soak: many tenants' mixed traffic against one server for minutes, and its memory over time. Each tenant
 * creates tasks with a callback to a local receiver (completion mode immediate, so each creation completes and
 * calls back), reads them one by one and by list pages, and resets itself every 200 tasks, so the data any
 * tenant holds stays bounded: memory that still grows is the server's, not the data's.
 *
 *   npm run soak                               5 minutes, 300 tenants
 *   npm run soak -- --minutes 10 --tenants 300 --root DIR
 *   npm run soak -- --server-args='--max-journal-bytes 67108864'     (flags for the server, after the soak's own)
 *   STRESS_NODE_FLAGS='--heap-growing-percent=30' npm run soak        (flags for node itself)
 *
 * Prints, every 30 s: requests so far and per second, RSS, heap after a full GC, the longest event-loop stall (with
 * the main thread's own CPU time in it and the requests it began: a burst served in one turn on a loaded machine,
 * or one slow step), the longest GC pause; then the growth over the second half (MB per minute). Figures are
 * printed, never asserted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { imageBody } from './bench-bodies.js';
import { type MemoryParts, startServer } from './stress/server.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    tenants: { type: 'string', default: '300' },
    root: { type: 'string' },
    'server-args': { type: 'string', default: '' },
  },
});
const MINUTES = Number(values.minutes);
const TENANTS = Number(values.tenants);
const RESET_EVERY = 200;
const root = resolve(values.root ?? new URL('..', import.meta.url).pathname);

const auth = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'content-type': 'application/json',
});

function receiver(): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

let requests = 0;
let failures = 0;

async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: auth(key),
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  requests += 1;
  const text = await res.text();
  if (res.status >= 400) {
    failures += 1;
    return undefined;
  }
  return text ? JSON.parse(text) : undefined;
}

/** One tenant's traffic until `until`: create (with a callback), read it, a list page; reset every 200 tasks. */
async function tenantLoop(base: string, key: string, callbackUrl: string, until: number): Promise<void> {
  let made = 0;
  while (Date.now() < until) {
    const task = (await call(base, key, 'POST', '/v1/task/imageannotation', {
      ...imageBody(made, { callback_url: callbackUrl }),
      project: undefined,
      batch: undefined,
      unique_id: undefined,
    })) as { task_id?: string } | undefined;
    if (task?.task_id) await call(base, key, 'GET', `/v1/task/${task.task_id}`);
    await call(base, key, 'GET', '/v1/tasks?limit=20');
    made += 1;
    if (made % RESET_EVERY === 0) await call(base, key, 'POST', '/_mock/reset');
  }
}

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** What RSS is made of at a probe (after its full collection): see docs/limits.md, "Where a soak's RSS is". */
function partsLine(p: MemoryParts): string {
  const spaces = Object.entries(p.spaces)
    .filter(([, s]) => s.committed >= 2 ** 20)
    .map(([name, s]) => `${name.replace(/_space$/, '')} ${mb(s.committed)}/${mb(s.physical)}`)
    .join(', ');
  const outside = p.rssAnon - p.heapPhysical - p.external;
  return (
    `RSS ${mb(p.rss)} = file ${mb(p.rssFile)} + anon ${mb(p.rssAnon)}; V8 heap committed ${mb(p.heapCommitted)}, ` +
    `resident ${mb(p.heapPhysical)}, used ${mb(p.heap)} (${spaces}, MB committed/resident); external ` +
    `${mb(p.external)}; V8 malloc ${mb(p.v8Malloced)} (peak ${mb(p.v8MallocedPeak)}); anon outside heap and ` +
    `external ${mb(outside)} MB; ${p.threads} threads`
  );
}

async function main(): Promise<void> {
  const callbacks = await receiver();
  const callbackUrl = `http://127.0.0.1:${(callbacks.address() as AddressInfo).port}/cb`;
  const extra = values['server-args'].split(' ').filter(Boolean);
  const server = await startServer(root, 1024, ['--completion', 'immediate', '--log', 'off', ...extra]);
  console.log(
    `labelmock soak: ${TENANTS} tenants for ${MINUTES} min against ${root} (pid ${server.pid}) ${extra.join(' ')}`,
  );
  const started = Date.now();
  const until = started + MINUTES * 60_000;
  const loops = Array.from({ length: TENANTS }, (_, i) => tenantLoop(server.base, `test_soak${i}`, callbackUrl, until));
  const samples: { minute: number; rss: number; heap: number }[] = [];
  let lastRequests = 0;
  let lastAt = started;
  const sample = async () => {
    const probe = await server.probe();
    const now = Date.now();
    const minute = (now - started) / 60_000;
    samples.push({ minute, rss: probe.rss, heap: probe.heap });
    const rate = (requests - lastRequests) / Math.max(1, (now - lastAt) / 1000);
    lastRequests = requests;
    lastAt = now;
    console.log(
      `${minute.toFixed(1)} min: ${requests} requests (${rate.toFixed(0)}/s, ${failures} failed), ` +
        `RSS ${mb(probe.rss)} MB, heap ${mb(probe.heap)} MB, external ${mb(probe.external)} MB ` +
        `(array buffers ${mb(probe.arrayBuffers)} MB), longest stall ${probe.loopMaxMs.toFixed(0)} ms ` +
        `(the main thread ran ${probe.loopMaxRanMs.toFixed(0)} ms of it, beginning ${probe.loopMaxRequests} ` +
        `requests), longest GC pause ${probe.gcMaxMs.toFixed(0)} ms (the probe's own: ${probe.forcedMs.toFixed(0)} ms)`,
    );
    console.log(`  ${partsLine(probe)}`);
  };
  const timer = setInterval(() => void sample(), 30_000);

  await Promise.all(loops);
  clearInterval(timer);
  const half = samples.filter((s) => s.minute >= MINUTES / 2);
  const first = half[0];
  const last = half[half.length - 1];
  if (first && last && last.minute > first.minute) {
    const perMinute = (key: 'rss' | 'heap') => (last[key] - first[key]) / 2 ** 20 / (last.minute - first.minute);
    console.log(
      `second half: RSS ${perMinute('rss') >= 0 ? '+' : ''}${perMinute('rss').toFixed(1)} MB/min, ` +
        `heap ${perMinute('heap') >= 0 ? '+' : ''}${perMinute('heap').toFixed(1)} MB/min`,
    );
  }
  server.child.kill('SIGTERM');
  await server.exited;
  callbacks.close();
}

await main();
