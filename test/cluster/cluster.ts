import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { freePort, type Router, startHaproxy, startNginx, stopRouter } from '../../scripts/cluster.js';
import { type CliProcess, startCli } from '../cli-process.js';

/**
 * A labelmock cluster on one machine: shards (the bin, each with its own --data-dir and --shard-id) behind the
 * routers the repository ships (deploy/haproxy, deploy/nginx), run from their files as they are: only the
 * addresses change, and a shard is removed by dropping its lines.
 */

export const SHARD_IDS = ['shard-0', 'shard-1', 'shard-2'] as const;

interface Shard {
  id: string;
  port: number;
  dataDir: string;
  process: CliProcess | undefined;
}

class Cluster {
  readonly scratch = mkdtempSync(join(tmpdir(), 'labelmock-cluster-'));
  readonly shards: Shard[] = [];
  private readonly routers: ChildProcess[] = [];

  async start(): Promise<void> {
    for (const id of SHARD_IDS) {
      const shard = { id, port: await freePort(), dataDir: join(this.scratch, id), process: undefined };
      this.shards.push(shard);
      await this.startShard(shard);
    }
  }

  /** Starts (or restarts, on the same folder and port) one shard. */
  async startShard(shard: Shard): Promise<void> {
    const args = ['--port', String(shard.port), '--shard-id', shard.id, '--data-dir', shard.dataDir, '--log', 'off'];
    shard.process = startCli([...args, '--completion', 'manual']);
    await shard.process.base;
  }

  /** SIGKILL: no shutdown, no flush; what it acknowledged must be on disk already. */
  async kill(shard: Shard): Promise<void> {
    const running = shard.process;
    if (!running) return;
    running.child.kill('SIGKILL');
    await running.exited;
    shard.process = undefined;
  }

  /** HAProxy on the shipped configuration; `without` drops a shard's lines, as an operator removing it would. */
  async haproxy(without?: string): Promise<string> {
    return this.keep(await startHaproxy(this.scratch, this.ports(), without));
  }

  /** nginx on the shipped configuration. */
  async nginx(without?: string): Promise<string> {
    return this.keep(await startNginx(this.scratch, this.ports(), without));
  }

  private ports(): number[] {
    return this.shards.map((shard) => shard.port);
  }

  private keep(router: Router): string {
    this.routers.push(router.child);
    return router.url;
  }

  async stop(): Promise<void> {
    for (const router of this.routers) await stopRouter(router);
    for (const shard of this.shards) await this.kill(shard);
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** Every way a client may send an account's keys: Basic, Bearer and bare; prefixed and suffixed; test and live. */
export function keyForms(account: string): string[] {
  const basic = (key: string, tail = ':') => `Basic ${Buffer.from(`${key}${tail}`).toString('base64')}`;
  return [
    basic(`test_${account}`),
    basic(`live_${account}`),
    basic(`${account}|test`),
    basic(`${account}|live`, ''),
    `basic ${Buffer.from(`test_${account}:`).toString('base64')}`,
    `Bearer test_${account}`,
    `Bearer ${account}|live`,
    `live_${account}`,
    `${account}|test`,
  ];
}

/** The shard that answered a request (the Labelmock-Shard header), and its status. */
export async function answeredBy(base: string, authorization: string, path = '/v1/tasks?limit=1') {
  const res = await fetch(`${base}${path}`, { headers: { authorization } });
  await res.arrayBuffer();
  return { shard: res.headers.get('labelmock-shard'), status: res.status };
}

/** The routers' base URLs, filled once the cluster of a test file is up. */
type Routers = Record<'haproxy' | 'nginx', string>;

/**
 * A test file's cluster: three shards behind both routers, started before its tests and stopped after them. Each
 * router has its own accounts in the tests: the two place an account on different shards.
 */
export function clusterForFile(): { cluster: Cluster; routers: Routers } {
  const cluster = new Cluster();
  const routers: Routers = { haproxy: '', nginx: '' };
  beforeAll(async () => {
    await cluster.start();
    routers.haproxy = await cluster.haproxy();
    routers.nginx = await cluster.nginx();
  });
  afterAll(() => cluster.stop());
  return { cluster, routers };
}
