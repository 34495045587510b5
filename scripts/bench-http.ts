/**
 * The hot paths over HTTP, as a user's client sees them: the bin the package ships (`dist/labelmock.mjs`,
 * what `npx labelmock`, `npm start`, the image and the pytest plugin run, with its default request log)
 * against a bare Hono server answering the very bytes labelmock answered (scripts/bench-http/bare-hono.mjs),
 * so a ratio is labelmock's own work beyond serializing its answer. Both are driven by autocannon in one
 * interleaved run: every round of every case runs each server in turn, the order rotating, so load from
 * elsewhere on the machine weighs on all alike.
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
 * `--against DIR` compares this build with another checkout's (built) instead of bare Hono: the bin that
 * checkout's package.json names (what its users ran), this build's bin, and this build's `dist/cli.js`
 * (the modules the bin bundles: a bundle slower than its modules is a build step changing behaviour), all
 * seeded alike and interleaved round by round; each ratio is a server's req/s over the other build's.
 * A ratio to bare Hono moves with the machine from day to day; builds in one run compare fairly.
 *   npm run bench:http -- --against /tmp/labelmock-main --only 'GET task|list unfiltered'
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { type Case, call, headers, seededCases } from './bench-http/cases.js';
import { binOf } from './bin-of.js';

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
  const server = (bin: string) => start([bin, '--port', '0', ...logArgs]);
  const mock = await server(binOf(ROOT));
  const others = values.against
    ? [await server(join(ROOT, 'dist/cli.js')), await server(binOf(resolve(values.against)))]
    : [await start(['scripts/bench-http/bare-hono.mjs'])];
  const receiver = await start(['scripts/bench-http/receiver.mjs']);
  try {
    if (values.against) await runAgainst(mock, others);
    else await run(mock.url, others[0]?.url as string, receiver.url, mock.child.pid as number);
  } finally {
    for (const p of [mock, ...others, receiver]) {
      p.child.removeAllListeners('exit');
      p.child.kill('SIGTERM');
    }
  }

  /** This build's bin and modules against another build's bin, each seeded alike: cases pair up by name. */
  async function runAgainst(mine: Started, [modules, theirs]: Started[]): Promise<void> {
    const seeded = (s: Started, label: string) => seededCases(s.url, receiver.url, SIZES, s.child.pid as number, label);
    const ours = await seeded(mine, 'this bin');
    const byName = async (s: Started, label: string) => new Map((await seeded(s, label)).map((c) => [c.name, c]));
    const [ourModules, others] = [
      await byName(modules as Started, 'this dist/cli.js'),
      await byName(theirs as Started, 'other build'),
    ];
    const selected = ours.filter((c) => values.only === undefined || new RegExp(values.only).test(c.name));
    await compare(
      selected.map((c) => [
        { url: mine.url, c },
        { url: (modules as Started).url, c: ourModules.get(c.name) ?? c },
        { url: (theirs as Started).url, c: others.get(c.name) ?? c },
      ]),
      ['this bin', 'this cli.js', 'other'],
    );
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
  else
    await compare(
      selected.map((c) => [
        { url, c },
        { url: bareUrl, c: bareCaseOf(c) },
      ]),
      ['mock', 'bare'],
    );
}

const newMeasure = (): Measure => ({ rps: [], p50: [], p99: [], non2xx: 0 });
const nonOk = (...ms: Measure[]) => {
  const counts = ms.map((m) => m.non2xx);
  return counts.some((n) => n > 0) ? `  (${counts.join('/')} non-2xx)` : '';
};

/** One case as one server is driven for it. */
interface Target {
  url: string;
  c: Case;
}

/**
 * Each case on every server (the mock and bare Hono, or builds), interleaved round by round, the order
 * rotating: load from elsewhere on the machine, and warmth, weigh on all alike. Each server's ratio is its
 * req/s over the last one's (the baseline: bare Hono, or the other build).
 */
async function compare(cases: Target[][], labels: string[]) {
  const baseline = labels.at(-1);
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target, ` +
      `interleaved (${labels.join(', ')}, the order rotating each round); ratios over ${baseline}`,
  );
  console.log(
    `${'case'.padEnd(30)} ${labels
      .map((l, i) => `${`${l} req/s`.padStart(16)} ${'p50/p99'.padStart(9)}${i < labels.length - 1 ? ' ratio' : ''}`)
      .join(' ')}`,
  );
  for (const targets of cases) {
    const measures = targets.map(newMeasure);
    // A second each first: the JIT compiles a path's code over its first thousands of requests.
    for (const t of targets) await drive(t.url, t.c, 1);
    for (let r = 0; r < ROUNDS; r += 1) {
      const order = targets.map((_, i) => (i + r) % targets.length);
      for (const i of order) await drive((targets[i] as Target).url, (targets[i] as Target).c, SECONDS, measures[i]);
    }
    const base = median((measures.at(-1) as Measure).rps);
    const cells = measures.map((m, i) => {
      const lat = `${median(m.p50)}/${median(m.p99)}`.padStart(9);
      const ratio = i < measures.length - 1 ? ` ${(median(m.rps) / base).toFixed(2).padStart(5)}` : '';
      return `${median(m.rps).toFixed(0).padStart(16)} ${lat}${ratio}`;
    });
    console.log(`${(targets[0] as Target).c.name.padEnd(30)} ${cells.join(' ')}${nonOk(...measures)}`);
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
