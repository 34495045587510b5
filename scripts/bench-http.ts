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
 * `--against DIR` compares this build with another checkout's (DIR/dist/cli.js, built) instead of bare
 * Hono: both seeded alike, interleaved round by round, the ratio being this build's req/s over the other's.
 * A ratio to bare Hono moves with the machine from day to day; two builds in one run compare fairly.
 *   npm run bench:http -- --against /tmp/labelmock-main --only 'GET task|list unfiltered'
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type Case, call, headers, seededCases } from './bench-http/cases.js';

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
    against: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const SIZES = { large: Number(values.large), small: Number(values.small), connections: CONNECTIONS };
const ROOT = new URL('..', import.meta.url).pathname;
/** The µs of pure CPU per answer the bare server spends in `--calibrate`. */
const SPINS = [0, 5, 10, 15, 20, 30, 45, 60];

interface Started {
  child: ChildProcess;
  url: string;
}

function start(args: string[]): Promise<Started> {
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
  const logArgs = values.log ? ['--log', values.log] : [];
  const mock = await start(['dist/cli.js', '--port', '0', ...logArgs]);
  const other = values.against
    ? await start([join(resolve(values.against), 'dist/cli.js'), '--port', '0', ...logArgs])
    : await start(['scripts/bench-http/bare-hono.mjs']);
  const receiver = await start(['scripts/bench-http/receiver.mjs']);
  try {
    if (values.against) await runAgainst(mock, other);
    else await run(mock.url, other.url, receiver.url, mock.child.pid as number);
  } finally {
    for (const p of [mock, other, receiver]) {
      p.child.removeAllListeners('exit');
      p.child.kill('SIGTERM');
    }
  }

  /** This build against another, each seeded alike: cases pair up by name. */
  async function runAgainst(mine: Started, theirs: Started): Promise<void> {
    const ours = await seededCases(mine.url, receiver.url, SIZES, mine.child.pid as number, 'this build');
    const others = await seededCases(theirs.url, receiver.url, SIZES, theirs.child.pid as number, 'other build');
    const byName = new Map(others.map((c) => [c.name, c]));
    const selected = ours.filter((c) => values.only === undefined || new RegExp(values.only).test(c.name));
    const otherOf = (c: Case) => byName.get(c.name) ?? c;
    await compare(mine.url, theirs.url, selected, otherOf, ['this', 'other']);
  }
}

async function run(url: string, bareUrl: string, receiverUrl: string, pid: number): Promise<void> {
  const cases = await seededCases(url, receiverUrl, SIZES, pid, 'mock');
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

/**
 * Each case on the mock and on the other server (bare Hono, or another build), interleaved round by round,
 * which one goes first alternating: load from elsewhere on the machine, and warmth, weigh on both alike.
 */
async function compare(
  url: string,
  otherUrl: string,
  cases: Case[],
  otherCaseOf: (c: Case) => Case,
  [mine, other] = ['mock', 'bare'],
) {
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target, ` +
      `interleaved (${mine}, ${other}, then ${other} first, ...)`,
  );
  console.log(
    `${'case'.padEnd(34)} ${`${mine} req/s`.padStart(11)} ${'p50/p99 ms'.padStart(11)} ` +
      `${`${other} req/s`.padStart(11)} ${'p50/p99 ms'.padStart(11)} ${'ratio'.padStart(6)}`,
  );
  for (const c of cases) {
    const otherCase = otherCaseOf(c);
    const mineM = newMeasure();
    const otherM = newMeasure();
    // A second each first: the JIT compiles a path's code over its first thousands of requests.
    await drive(url, c, 1);
    await drive(otherUrl, otherCase, 1);
    for (let r = 0; r < ROUNDS; r += 1) {
      const both = [() => drive(url, c, SECONDS, mineM), () => drive(otherUrl, otherCase, SECONDS, otherM)];
      for (const run of r % 2 === 0 ? both : both.reverse()) await run();
    }
    const lat = (m: Measure) => `${median(m.p50)}/${median(m.p99)}`.padStart(11);
    const ratio = median(mineM.rps) / median(otherM.rps);
    console.log(
      `${c.name.padEnd(34)} ${median(mineM.rps).toFixed(0).padStart(11)} ${lat(mineM)} ` +
        `${median(otherM.rps).toFixed(0).padStart(11)} ${lat(otherM)} ${ratio.toFixed(2).padStart(6)}` +
        nonOk(mineM, otherM),
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
