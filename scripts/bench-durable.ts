/**
 * What --data-dir costs, on the built server (npm run bench:durable builds first):
 *  - task creation over HTTP (autocannon, 20 connections) in memory and with --data-dir, interleaved;
 *  - journal bytes per task;
 *  - the start (recovery) time and resident memory with 100,000 tasks in the folder (--tasks N to change).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const ROOT = new URL('..', import.meta.url).pathname;
const CONNECTIONS = 20;
const ROUNDS = 3;
const SECONDS = 4;
const argTasks = process.argv.indexOf('--tasks');
const RESTART_TASKS = argTasks === -1 ? 100_000 : Number(process.argv[argTasks + 1]);
const BODY = JSON.stringify({
  attachment: 'https://example.com/a.jpg',
  geometries: { box: { objects_to_annotate: ['car', 'person'] } },
  metadata: { source: 'bench' },
});

const headers = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
  'content-type': 'application/json',
});

/** The built server; resolves with its URL and how long it took to listen (the recovery, with a folder). */
function start(args: string[]): Promise<{ child: ChildProcess; url: string; ms: number; banner: string }> {
  const began = performance.now();
  const child = spawn(process.execPath, ['dist/cli.js', '--port', '0', '--log', 'off', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (url && out.includes('try:')) resolve({ child, url, ms: performance.now() - began, banner: out });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const rssOf = (pid: number | undefined) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

const folderBytes = (dir: string, prefix: string) =>
  readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

async function creates(url: string, key: string, seconds: number, amount?: number) {
  const result = await autocannon({
    url: `${url}/v1/task/imageannotation`,
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    method: 'POST',
    headers: headers(key),
    body: BODY,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
  };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

async function throughput(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-bench-'));
  const memory = await start([]);
  const durable = await start(['--data-dir', dir]);
  const results = {
    memory: [] as number[],
    durable: [] as number[],
    p99: { memory: [] as number[], durable: [] as number[] },
  };
  let created = 0;
  try {
    // Warm-up, then interleaved rounds: both see the same machine load.
    await creates(memory.url, 'test_warm', 1);
    await creates(durable.url, 'test_warm', 1);
    for (let round = 0; round < ROUNDS; round += 1) {
      const m = await creates(memory.url, `test_round${round}`, SECONDS);
      const d = await creates(durable.url, `test_round${round}`, SECONDS);
      results.memory.push(m.rps);
      results.durable.push(d.rps);
      results.p99.memory.push(m.p99);
      results.p99.durable.push(d.p99);
      created += d.total;
    }
  } finally {
    await stop(memory.child);
    await stop(durable.child);
  }
  const journalBytes = folderBytes(dir, 'journal-') + folderBytes(dir, 'snapshot-');
  rmSync(dir, { recursive: true, force: true });
  const m = median(results.memory);
  const d = median(results.durable);
  console.log(`create imageannotation, ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${SECONDS} s`);
  console.log(`  in memory:   ${m.toFixed(0)} req/s (p99 ${median(results.p99.memory)} ms)`);
  console.log(
    `  --data-dir:  ${d.toFixed(0)} req/s (p99 ${median(results.p99.durable)} ms)  ratio ${(d / m).toFixed(2)}`,
  );
  console.log(`  journal:     ${(journalBytes / created).toFixed(0)} bytes per task created (${created} tasks)`);
}

async function restart(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-bench-'));
  try {
    const first = await start(['--data-dir', dir]);
    const filled = performance.now();
    await creates(first.url, 'test_restart', 0, RESTART_TASKS);
    const fillS = (performance.now() - filled) / 1000;
    const rssBefore = rssOf(first.child.pid);
    await stop(first.child);
    const second = await start(['--data-dir', dir]);
    const rssAfter = rssOf(second.child.pid);
    const state = /state: (.*)/.exec(second.banner)?.[1];
    await stop(second.child);
    const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
    console.log(`restart with ${RESTART_TASKS} tasks (filled in ${fillS.toFixed(1)} s over HTTP)`);
    console.log(`  folder: ${mb(folderBytes(dir, ''))} (journal ${mb(folderBytes(dir, 'journal-'))})`);
    console.log(`  start to listening: ${second.ms.toFixed(0)} ms; banner: ${state}`);
    console.log(`  RSS before the restart ${mb(rssBefore)}, after ${mb(rssAfter)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await throughput();
await restart();
