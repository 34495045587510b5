import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { binOf } from './bin-of.js';
import { freePort, startHaproxy, startNginx, stopRouter } from './cluster.js';

/**
 * Three shards behind each shipped router against one process, as a fleet's CI drives them: many accounts at once,
 * every request with its own account's key. Every server keeps its state in a folder (--data-dir), as a shared
 * one does; all are the bin users run. Targets are driven in turn, round by round, the order rotating, so load
 * from elsewhere on the machine weighs on all alike. Cases: GET a task, a list page, and create a task.
 * Everything (servers, routers and autocannon) shares this machine's cores: more shards than cores add no CPU.
 *   npm run bench:cluster [-- --rounds 3 --seconds 4 --connections 40 --accounts 60]
 */

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '40' },
    accounts: { type: 'string', default: '60' },
  },
});
const ROUNDS = Number(values.rounds);
const SECONDS = Number(values.seconds);
const CONNECTIONS = Number(values.connections);
const ACCOUNTS = Number(values.accounts);
const ROOT = new URL('..', import.meta.url).pathname;

function startBin(port: number, args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [binOf(ROOT), '--port', String(port), '--log', 'off', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      if (out.includes('listening on')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`labelmock exited ${code}: ${out}`)));
  });
}

const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
const TASK = JSON.stringify({ attachment: 'https://example.com/a.jpg', categories: ['a', 'b'], instruction: 'bench' });

interface Case {
  name: string;
  method: 'GET' | 'POST';
  /** The path and key of the n-th request: each request another account's, round robin. */
  request(n: number): { path: string; authorization: string };
}

/**
 * Seeds every account through `url` (10 tasks each) and answers the cases, with the task ids they read. Each target
 * has accounts of its own (`tag`): HAProxy and nginx place an account on different shards of the same three.
 */
async function seed(url: string, tag: string): Promise<Case[]> {
  const tasks: string[][] = [];
  for (let a = 0; a < ACCOUNTS; a++) {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await fetch(`${url}/v1/task/categorization`, {
        method: 'POST',
        headers: { authorization: basic(`test_${tag}${a}`), 'content-type': 'application/json' },
        body: TASK,
      });
      ids.push(((await res.json()) as { task_id: string }).task_id);
    }
    tasks.push(ids);
  }
  const account = (n: number) => n % ACCOUNTS;
  return [
    {
      name: 'GET a task',
      method: 'GET',
      request: (n) => ({
        path: `/v1/task/${tasks[account(n)]?.[n % 10]}`,
        authorization: basic(`test_${tag}${account(n)}`),
      }),
    },
    {
      name: 'list page (limit 10)',
      method: 'GET',
      request: (n) => ({ path: '/v1/tasks?limit=10', authorization: basic(`test_${tag}${account(n)}`) }),
    },
    {
      name: 'create categorization',
      method: 'POST',
      request: (n) => ({ path: '/v1/task/categorization', authorization: basic(`test_${tag}${account(n)}`) }),
    },
  ];
}

async function drive(url: string, c: Case): Promise<{ rps: number; p99: number; failed: number }> {
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    method: c.method,
    requests: [
      {
        setupRequest: (req) => {
          const { path, authorization } = c.request(n++);
          const headers = { authorization, 'content-type': 'application/json' };
          return { ...req, path, headers, body: c.method === 'POST' ? TASK : undefined };
        },
      },
    ],
  });
  return { rps: result.requests.average, p99: result.latency.p99, failed: result.non2xx + result.errors };
}

const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'labelmock-bench-cluster-'));
  const children: ChildProcess[] = [];
  const routers: ChildProcess[] = [];
  try {
    const lonePort = await freePort();
    children.push(await startBin(lonePort, ['--data-dir', join(scratch, 'lone')]));
    const shardPorts: number[] = [];
    for (const id of ['shard-0', 'shard-1', 'shard-2']) {
      const port = await freePort();
      shardPorts.push(port);
      children.push(await startBin(port, ['--shard-id', id, '--data-dir', join(scratch, id)]));
    }
    const haproxy = await startHaproxy(scratch, shardPorts);
    const nginx = await startNginx(scratch, shardPorts);
    routers.push(haproxy.child, nginx.child);
    const targets = [
      { name: 'one process', url: `http://127.0.0.1:${lonePort}` },
      { name: '3 shards, HAProxy', url: haproxy.url },
      { name: '3 shards, nginx', url: nginx.url },
    ];
    const cases: Case[][] = [];
    for (const [t, target] of targets.entries()) cases.push(await seed(target.url, `bench${t}x`));
    const casesOf = (target: number) => cases[target] as Case[];
    console.log(`${ACCOUNTS} accounts, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per target`);
    for (let c = 0; c < (cases[0] as Case[]).length; c++) {
      const results = targets.map(() => ({ rps: [] as number[], p99: [] as number[], failed: 0 }));
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < targets.length; k++) {
          const t = (k + round) % targets.length;
          const run = await drive((targets[t] as { url: string }).url, casesOf(t)[c] as Case);
          const into = results[t] as (typeof results)[number];
          into.rps.push(run.rps);
          into.p99.push(run.p99);
          into.failed += run.failed;
        }
      }
      console.log(`\n${(cases[0] as Case[])[c]?.name}`);
      const base = median(results[0]?.rps ?? []);
      targets.forEach((target, t) => {
        const r = results[t] as (typeof results)[number];
        const rps = median(r.rps);
        const line = `${target.name.padEnd(20)} ${rps.toFixed(0).padStart(7)} req/s  ×${(rps / base).toFixed(2)}`;
        console.log(`  ${line}  p99 ${median(r.p99)} ms${r.failed ? `  (${r.failed} failed)` : ''}`);
      });
    }
  } finally {
    for (const router of routers) await stopRouter(router);
    for (const child of children) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
