/**
 * The hot paths over HTTP, as a user's client sees them: labelmock's built server
 * (`node dist/cli.js`) against a bare Hono server answering the very bytes labelmock answered
 * (scripts/bench-http/bare-hono.mjs), so a ratio is labelmock's own work beyond serializing its
 * answer. Both are driven by autocannon in one interleaved run: every round of every case runs the
 * mock and then the bare server, so load from elsewhere on the machine weighs on both alike.
 * Cases: GET a task; a list page (limit 100) with the small and the large store, unfiltered and
 * with each filter family; create imageannotation and textcollection; a completion with a callback.
 * Also prints the mock's RSS before and after the large tenant is seeded (bytes per task).
 * `--calibrate` measures instead what a ratio means on this machine: the bare server also spends a
 * fixed number of µs of pure CPU on each answer (0, 5, 10, ...), and each case prints the ratio each
 * spin gives and the spin the mock is worth (its own work per request, in CPU µs). With the load
 * generator on the same cores, a ratio's budget is far from linear: it is what to compare targets with.
 * Needs a build first (`npm run bench:http` builds).
 *   npm run bench:http [-- --rounds 3 --seconds 2 --connections 20 --large 100000 --small 1000 --only 'list.*(1000)']
 *   npm run bench:http -- --calibrate --only create
 *   npm run bench:http -- --log off     (the request log is on by default, as a user's CI gets it)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { imageBody } from './bench-bodies.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '2' },
    connections: { type: 'string', default: '20' },
    large: { type: 'string', default: '100000' },
    small: { type: 'string', default: '1000' },
    only: { type: 'string' },
    calibrate: { type: 'boolean', default: false },
    // The mock's request log: unset runs what a user gets (stdout is a pipe here, so json); `off` silences it.
    log: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const LARGE = Number(values.large);
const SMALL = Number(values.small);
const ROOT = new URL('..', import.meta.url).pathname;
const COMPLETED_PER_TENANT = 300;
/** The µs of pure CPU per answer the bare server spends in `--calibrate`. */
const SPINS = [0, 5, 10, 15, 20, 30, 45, 60];

const headers = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'content-type': 'application/json',
});

function start(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let started = false;
    // Read to the end (a request log fills the pipe otherwise), keeping only what comes before the banner.
    child.stdout?.on('data', (chunk) => {
      if (started) return;
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        started = true;
        resolve({ child, url });
      }
    });
    child.on('exit', (code, signal) => {
      // After it started too: a server that dies mid-run would otherwise show only as failed requests.
      console.error(`${args[0]} exited (code ${code}, signal ${signal})`);
      reject(new Error(`${args[0]} exited ${code}: ${out}`));
    });
  });
}

const rssOf = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function call(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: headers(key),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text;
}

/** `count` tasks in the tenant of `key` (a project and a batch first), with autocannon for speed. */
async function seed(url: string, key: string, count: number, extra: Record<string, unknown> = {}): Promise<string[]> {
  await call(url, key, 'POST', '/v1/projects', { type: 'imageannotation', name: 'p' });
  await call(url, key, 'POST', '/v1/batches', { project: 'p', name: 'b' });
  const ids: string[] = [];
  let n = 0;
  const result = await autocannon({
    url: `${url}/v1/task/imageannotation`,
    connections: CONNECTIONS,
    amount: count,
    method: 'POST',
    headers: headers(key),
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: JSON.stringify(imageBody(n++, extra)) }),
        onResponse: (_status, body) => {
          ids.push(JSON.parse(body).task_id);
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`seeding ${key}: ${result.non2xx} non-2xx`);
  return ids;
}

interface Case {
  name: string;
  method: 'GET' | 'POST';
  key: string;
  /** The path of each request (a completion takes a new task each time). */
  path: () => string;
  body?: string;
}

interface Measure {
  rps: number[];
  p50: number[];
  p99: number[];
  non2xx: number;
}

async function drive(url: string, c: Case, seconds: number, m?: Measure): Promise<void> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    method: c.method,
    headers: headers(c.key),
    requests: [{ setupRequest: (req) => ({ ...req, path: c.path(), body: c.body }) }],
  });
  if (!m) return;
  m.rps.push(result.requests.average);
  m.p50.push(result.latency.p50);
  m.p99.push(result.latency.p99);
  m.non2xx += result.non2xx + result.errors;
}

/** The median (upper middle) of `list`; NaN for no values. */
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const mock = await start(['dist/cli.js', '--port', '0', ...(values.log ? ['--log', values.log] : [])]);
  const bare = await start(['scripts/bench-http/bare-hono.mjs']);
  const receiver = await start(['scripts/bench-http/receiver.mjs']);
  try {
    await run(mock.url, bare.url, receiver.url, mock.child.pid as number);
  } finally {
    for (const p of [mock, bare, receiver]) {
      p.child.removeAllListeners('exit');
      p.child.kill('SIGTERM');
    }
  }
}

async function run(url: string, bareUrl: string, receiverUrl: string, pid: number): Promise<void> {
  const since = new Date().toISOString();
  const rssBefore = rssOf(pid);
  const largeIds = await seed(url, 'test_large', LARGE);
  const rssAfter = rssOf(pid);
  const smallIds = await seed(url, 'test_small', SMALL);
  // Some completed tasks in each store, for the completed_at range.
  for (const [key, ids] of [
    ['test_large', largeIds],
    ['test_small', smallIds],
  ] as const) {
    for (const id of ids.slice(0, COMPLETED_PER_TENANT)) await call(url, key, 'POST', `/_mock/tasks/${id}/complete`);
  }
  const perTask = (rssAfter - rssBefore) / LARGE;
  console.log(
    `mock RSS: ${(rssBefore / 2 ** 20).toFixed(0)} MB before seeding, ` +
      `${(rssAfter / 2 ** 20).toFixed(0)} MB with ${LARGE} tasks ` +
      `(${perTask.toFixed(0)} bytes per task)`,
  );

  const filters: [string, string][] = [
    ['unfiltered', ''],
    ['status', '&status=pending'],
    ['type', '&type=imageannotation'],
    ['project', '&project=p'],
    ['batch', '&batch=b'],
    ['review status', '&customer_review_status=pending'],
    ['tags', '&tags=t'],
    ['unique_id', '&unique_id=u7'],
    ['created range', `&start_time=${since}&end_time=2999-01-01T00:00:00.000Z`],
    ['updated range', `&updated_after=${since}`],
    ['completed range', `&completed_after=${since}`],
  ];
  const cases: Case[] = [
    { name: 'GET task', method: 'GET', key: 'test_large', path: () => `/v1/task/${largeIds[500]}` },
  ];
  for (const [store, key] of [
    [`${SMALL}`, 'test_small'],
    [`${LARGE}`, 'test_large'],
  ] as const) {
    for (const [label, query] of filters) {
      const path = `/v1/tasks?limit=100${query}`;
      cases.push({ name: `list ${label} (${store})`, method: 'GET', key, path: () => path });
    }
  }
  const textBody = JSON.parse(readFileSync(`${ROOT}fixtures/tasks/textcollection.create.json`, 'utf8'));
  delete textBody.callback_url;
  cases.push(
    {
      name: 'create imageannotation',
      method: 'POST',
      key: 'test_create',
      path: () => '/v1/task/imageannotation',
      body: JSON.stringify({ ...imageBody(0), project: undefined, batch: undefined, unique_id: undefined }),
    },
    {
      name: 'create textcollection',
      method: 'POST',
      key: 'test_create',
      path: () => '/v1/task/textcollection',
      body: JSON.stringify(textBody),
    },
  );
  // Completions use each task once: enough pending tasks with a callback for every round.
  const callbackIds = await seed(url, 'test_callbacks', 25_000, {
    callback_url: `${receiverUrl}/cb`,
    unique_id: undefined,
  });
  let nextCallback = 0;
  cases.push({
    name: 'complete with callback',
    method: 'POST',
    key: 'test_callbacks',
    path: () => `/_mock/tasks/${callbackIds[nextCallback++ % callbackIds.length]}/complete`,
  });

  const selected = cases.filter((c) => values.only === undefined || new RegExp(values.only).test(c.name));
  // The bare server's answers: the mock's own bytes for each case (a completion's: one of them).
  const answers: Record<string, string> = {};
  for (const c of selected) {
    const path = c.path();
    const text = await call(url, c.key, c.method, path, c.body === undefined ? undefined : JSON.parse(c.body));
    answers[`${c.method} ${c.name === 'complete with callback' ? '/complete' : path}`] = text;
  }
  await fetch(`${bareUrl}/__answers`, { method: 'POST', body: JSON.stringify(answers) });
  const bareCaseOf = (c: Case): Case => (c.name === 'complete with callback' ? { ...c, path: () => '/complete' } : c);
  if (values.calibrate) await calibrate(url, bareUrl, selected, bareCaseOf);
  else await compare(url, bareUrl, selected, bareCaseOf);
}

const newMeasure = (): Measure => ({ rps: [], p50: [], p99: [], non2xx: 0 });
const nonOk = (...ms: Measure[]) => {
  const counts = ms.map((m) => m.non2xx);
  return counts.some((n) => n > 0) ? `  (${counts.join('/')} non-2xx)` : '';
};

/** Each case on the mock and on the bare server, interleaved round by round. */
async function compare(url: string, bareUrl: string, cases: Case[], bareCaseOf: (c: Case) => Case) {
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target, ` +
      `interleaved (mock, bare, mock, ...)`,
  );
  console.log(
    `${'case'.padEnd(34)} ${'mock req/s'.padStart(10)} ${'p50/p99 ms'.padStart(11)} ` +
      `${'bare req/s'.padStart(10)} ${'p50/p99 ms'.padStart(11)} ${'ratio'.padStart(6)}`,
  );
  for (const c of cases) {
    const bareCase = bareCaseOf(c);
    const mockM = newMeasure();
    const bareM = newMeasure();
    // A second each first: the JIT compiles a path's code over its first thousands of requests.
    await drive(url, c, 1);
    await drive(bareUrl, bareCase, 1);
    for (let r = 0; r < ROUNDS; r += 1) {
      await drive(url, c, SECONDS, mockM);
      await drive(bareUrl, bareCase, SECONDS, bareM);
    }
    const lat = (m: Measure) => `${median(m.p50)}/${median(m.p99)}`.padStart(11);
    const ratio = median(mockM.rps) / median(bareM.rps);
    console.log(
      `${c.name.padEnd(34)} ${median(mockM.rps).toFixed(0).padStart(10)} ${lat(mockM)} ` +
        `${median(bareM.rps).toFixed(0).padStart(10)} ${lat(bareM)} ${ratio.toFixed(2).padStart(6)}` +
        nonOk(mockM, bareM),
    );
  }
}

/**
 * For each case: the bare server's req/s with each spin of SPINS, as a ratio to its own with none,
 * and the mock's place among them (the spin, interpolated in time per request, that answers as fast).
 */
async function calibrate(url: string, bareUrl: string, cases: Case[], bareCaseOf: (c: Case) => Case) {
  const spin = (us: number) => fetch(`${bareUrl}/__spin`, { method: 'POST', body: JSON.stringify({ us }) });
  console.log(`autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target`);
  console.log(
    `${'case'.padEnd(26)} ${'bare req/s'.padStart(10)} ` +
      `${SPINS.slice(1)
        .map((us) => `+${us} µs`.padStart(7))
        .join(' ')} ${'mock'.padStart(6)} ${'mock ≈'.padStart(8)}`,
  );
  for (const c of cases) {
    const bareCase = bareCaseOf(c);
    await drive(url, c, 1);
    await drive(bareUrl, bareCase, 1);
    const mockM = newMeasure();
    const spun = SPINS.map((us) => ({ us, m: newMeasure() }));
    for (let r = 0; r < ROUNDS; r += 1) {
      await drive(url, c, SECONDS, mockM);
      for (const { us, m } of spun) {
        await spin(us);
        await drive(bareUrl, bareCase, SECONDS, m);
      }
    }
    await spin(0);
    const points = spun.map(({ us, m }) => ({ us, rate: median(m.rps) }));
    const base = points[0]?.rate ?? Number.NaN;
    const mock = median(mockM.rps);
    console.log(
      `${c.name.padEnd(26)} ${base.toFixed(0).padStart(10)} ` +
        `${points
          .slice(1)
          .map(({ rate }) => (rate / base).toFixed(2).padStart(7))
          .join(' ')} ${(mock / base).toFixed(2).padStart(6)} ` +
        `${equivalentSpin(points, mock).padStart(8)}${nonOk(mockM, ...spun.map(({ m }) => m))}`,
    );
  }
}

/** The spin at which the bare server would answer at `rate`, interpolated in time per request. */
function equivalentSpin(points: { us: number; rate: number }[], rate: number): string {
  const i = points.findIndex((p) => p.rate <= rate);
  const [below, above] = [points[i - 1], points[i]];
  if (i === 0) return '0 µs';
  if (!below || !above) return `>${points.at(-1)?.us} µs`;
  const share = (1 / rate - 1 / below.rate) / (1 / above.rate - 1 / below.rate);
  return `${(below.us + (above.us - below.us) * share).toFixed(0)} µs`;
}

void main();
