/**
 * Start-up cost as a user sees it: from spawning the process to the first answer of `GET /v1/tasks`, for
 * labelmock's built bin (the single-file bundle `dist/labelmock.mjs`, which the bin starts, and `dist/cli.js`
 * with its modules) and for a bare Hono server started the same way (scripts/bench-start/bare-hono.mjs). Runs
 * each several times, interleaved, and prints the medians and the ratios. Needs a build first (`npm run build`).
 *   npm run bench:start [-- --runs 9]
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' } } });
const RUNS = Number(values.runs);
const ROOT = new URL('..', import.meta.url).pathname;
const AUTH = `Basic ${Buffer.from('test_bench:').toString('base64')}`;

const TARGETS = {
  'labelmock (bundle)': ['dist/labelmock.mjs', '--port', '0', '--log', 'off'],
  'labelmock (modules)': ['dist/cli.js', '--port', '0', '--log', 'off'],
  'bare hono': ['scripts/bench-start/bare-hono.mjs'],
};
type Target = keyof typeof TARGETS;

/** Milliseconds from spawn to the first 200 of GET /v1/tasks. */
function timeToFirstAnswer(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', async (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match || out.includes('\u0000')) return;
      out += '\u0000'; // answer once
      const res = await fetch(`${match[1]}/v1/tasks`, { headers: { authorization: AUTH } });
      const ms = performance.now() - started;
      child.kill('SIGTERM');
      if (res.status === 200) resolve(ms);
      else reject(new Error(`${args[0]} answered ${res.status}`));
    });
    child.on('exit', (code) => code !== 0 && code !== null && reject(new Error(`${args[0]} exited ${code}: ${out}`)));
  });
}

/** The median (upper middle) of `values`; NaN for no values. */
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const names = Object.keys(TARGETS) as Target[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<Target, number[]>;
  for (let i = 0; i < RUNS; i += 1) {
    for (const name of names) times[name].push(await timeToFirstAnswer(TARGETS[name]));
  }
  for (const [name, list] of Object.entries(times)) {
    console.log(
      `${name.padEnd(20)} median ${median(list).toFixed(0)} ms  (runs: ${list.map((ms) => ms.toFixed(0)).join(', ')})`,
    );
  }
  const bare = median(times['bare hono']);
  for (const name of names.filter((n) => n !== 'bare hono')) {
    console.log(`ratio ${name} / bare hono: ${(median(times[name]) / bare).toFixed(2)}`);
  }
}

void main();
