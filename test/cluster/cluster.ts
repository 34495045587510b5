import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliProcess, startCli } from '../cli-process.js';

/**
 * A labelmock cluster on one machine: shards (the bin, each with its own --data-dir and --shard-id) behind the
 * routers the repository ships (deploy/haproxy, deploy/nginx), run from their files as they are: only the
 * addresses change, and a shard is removed by dropping its lines.
 */

const ROOT = new URL('../../', import.meta.url).pathname;
export const SHARD_IDS = ['shard-0', 'shard-1', 'shard-2'] as const;

/** A port nothing listens on now (the kernel's pick, let go), for a process that must keep its address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Shard {
  id: string;
  port: number;
  dataDir: string;
  process: CliProcess | undefined;
}

export class Cluster {
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
    const port = await freePort();
    const config = join(this.scratch, `haproxy-${port}.cfg`);
    writeFileSync(config, dropShard(readFileSync(join(ROOT, 'deploy/haproxy/haproxy.cfg'), 'utf8'), without));
    const env: Record<string, string> = { ...process.env, LABELMOCK_ROUTER_BIND: `127.0.0.1:${port}` } as never;
    this.shards.forEach((shard, index) => {
      env[`LABELMOCK_SHARD_${index}`] = `127.0.0.1:${shard.port}`;
    });
    return this.router(spawn('haproxy', ['-db', '-f', config], { env }), port);
  }

  /** nginx on the shipped configuration, included in the smallest nginx.conf that loads njs. */
  async nginx(without?: string): Promise<string> {
    const port = await freePort();
    const prefix = join(this.scratch, `nginx-${port}`);
    mkdirSync(join(prefix, 'logs'), { recursive: true });
    copyFileSync(join(ROOT, 'deploy/nginx/labelmock-account.js'), join(prefix, 'labelmock-account.js'));
    let site = dropShard(readFileSync(join(ROOT, 'deploy/nginx/labelmock.conf'), 'utf8'), without)
      .replace('js_path /etc/nginx/labelmock;', `js_path ${prefix};`)
      .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`);
    this.shards.forEach((shard, index) => {
      site = site.replaceAll(`127.0.0.1:${8081 + index}`, `127.0.0.1:${shard.port}`);
    });
    writeFileSync(join(prefix, 'labelmock.conf'), site);
    const main = [
      'load_module /usr/lib/nginx/modules/ngx_http_js_module.so;',
      `pid ${join(prefix, 'nginx.pid')};`,
      `error_log ${join(prefix, 'logs/error.log')} error;`,
      'events { worker_connections 1024; }',
      'http {',
      '  access_log off;',
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${prefix}/${kind};`),
      `  include ${join(prefix, 'labelmock.conf')};`,
      '}',
    ].join('\n');
    writeFileSync(join(prefix, 'nginx.conf'), main);
    return this.router(spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;']), port);
  }

  private async router(child: ChildProcess, port: number): Promise<string> {
    this.routers.push(child);
    let said = '';
    child.stdout?.on('data', (chunk) => (said += chunk));
    child.stderr?.on('data', (chunk) => (said += chunk));
    let exited = false;
    child.once('exit', () => {
      exited = true;
    });
    const base = `http://127.0.0.1:${port}`;
    // Until it answers through to a shard, or exits; the hook's timeout bounds a router that does neither.
    for (;;) {
      if (exited) throw new Error(`the router exited before answering:\n${said}`);
      const status = await fetch(`${base}/_mock/health`).then(
        (res) => res.status,
        () => 0,
      );
      if (status === 200) return base;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    for (const router of this.routers) router.kill('SIGKILL');
    for (const shard of this.shards) await this.kill(shard);
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** The configuration without every line that names `shard`: how a shard is removed from either router. */
function dropShard(text: string, shard: string | undefined): string {
  if (!shard) return text;
  return text
    .split('\n')
    .filter((line) => !line.includes(shard))
    .join('\n');
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
