import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/**
 * The routers the repository ships (deploy/haproxy, deploy/nginx), started on one machine from their files as
 * they are: only the addresses change, and a shard is removed by dropping its lines. Used by the cluster tests
 * (test/cluster/) and the cluster benchmark (scripts/bench-cluster.ts); the distribution's haproxy and nginx
 * (with njs) must be installed.
 */

const ROOT = new URL('..', import.meta.url).pathname;

/** A port nothing listens on now (the kernel's pick, let go), for a process that must keep its address. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A router started on 127.0.0.1: its process and base URL. */
export interface Router {
  child: ChildProcess;
  url: string;
}

/**
 * HAProxy on deploy/haproxy/haproxy.cfg, the shards' ports in the environment it reads; `without` drops a shard's
 * lines, as an operator removing it would.
 */
export async function startHaproxy(scratch: string, shardPorts: number[], without?: string): Promise<Router> {
  const port = await freePort();
  const config = join(scratch, `haproxy-${port}.cfg`);
  writeFileSync(config, dropShard(readFileSync(join(ROOT, 'deploy/haproxy/haproxy.cfg'), 'utf8'), without));
  const env: NodeJS.ProcessEnv = { ...process.env, LABELMOCK_ROUTER_BIND: `127.0.0.1:${port}` };
  shardPorts.forEach((shard, index) => {
    env[`LABELMOCK_SHARD_${index}`] = `127.0.0.1:${shard}`;
  });
  return routerUp(spawn('haproxy', ['-db', '-f', config], { env }), port);
}

/** nginx on deploy/nginx/labelmock.conf, included in the smallest nginx.conf that loads njs. */
export async function startNginx(scratch: string, shardPorts: number[], without?: string): Promise<Router> {
  const port = await freePort();
  const prefix = join(scratch, `nginx-${port}`);
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  copyFileSync(join(ROOT, 'deploy/nginx/labelmock-account.js'), join(prefix, 'labelmock-account.js'));
  let site = dropShard(readFileSync(join(ROOT, 'deploy/nginx/labelmock.conf'), 'utf8'), without)
    .replace('js_path /etc/nginx/labelmock;', `js_path ${prefix};`)
    .replace('listen 127.0.0.1:8080;', `listen 127.0.0.1:${port};`);
  shardPorts.forEach((shard, index) => {
    site = site.replaceAll(`127.0.0.1:${8081 + index}`, `127.0.0.1:${shard}`);
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
  const args = ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'];
  return routerUp(spawn('nginx', args), port);
}

/**
 * Stops a router and waits for it: SIGTERM, which nginx's master passes to its workers (a SIGKILLed master leaves
 * them running, holding their ports).
 */
export async function stopRouter(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Resolves once the router answers through to a shard; rejects if it exits first (with what it said). */
async function routerUp(child: ChildProcess, port: number): Promise<Router> {
  let said = '';
  child.stdout?.on('data', (chunk) => {
    said += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    said += chunk;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const url = `http://127.0.0.1:${port}`;
  // Until it answers, or exits: the caller's own timeout bounds a router that does neither.
  for (;;) {
    if (exited) throw new Error(`the router exited before answering:\n${said}`);
    const status = await fetch(`${url}/_mock/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return { child, url };
    await new Promise((resolve) => setTimeout(resolve, 50));
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
