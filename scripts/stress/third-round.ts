import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { auth, call, fmtLatency, fmtMs, pool, sampleLatency } from './http.js';
import { measured } from './measured.js';
import { type Ctx, imageBody, runItems } from './report.js';
import { type StartedServer, startServer } from './server.js';

/**
 * The third hardening round's items (t1-t9, and ta/tb/tc for its "Also"): pipelined clients that left,
 * uploads and multipart names against their budgets, --data-dir writes beside a large account, v2 delivery
 * pages, the held-request share, the Host check with --host 127.1, query keys named after Object.prototype
 * members, a 5,000-task batch cancel, and time-filtered pages of a busy store. Some items need flags: they
 * start a server of their own.
 */

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** The peak resident memory of a process so far (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const line = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? Number.NaN) * 1024;
}

async function withServer(ctx: Ctx, args: string[], run: (server: StartedServer) => Promise<void>): Promise<void> {
  const server = await startServer(ctx.root, 1024, args);
  try {
    await run(server);
  } finally {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

/** Raw HTTP/1.1 requests written on one socket at once (pipelined); the socket is destroyed after `ms`. */
function pipelined(base: string, requests: string[], ms: number): Promise<void> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => socket.write(requests.join('')));
    socket.on('error', () => {});
    setTimeout(() => {
      socket.destroy();
      resolve();
    }, ms);
  });
}

const rawPost = (key: string, path: string, body: string, headers: Record<string, string> = {}) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth(key)}\r\nContent-Type: application/json\r\n` +
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

/** t1: ten connections each pipeline two creations delayed 600 ms, and leave after 100 ms. */
async function pipelinedLeavers(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_pipelined';
  const body = JSON.stringify(imageBody(ctx.root));
  const delayed = rawPost(key, '/v1/task/imageannotation', body, { 'Labelmock-Fault': 'delay=600' });
  await Promise.all(Array.from({ length: 10 }, () => pipelined(base, [delayed, delayed], 100)));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const made = (await call(base, key, 'GET', '/v1/tasks?limit=100')).body.total;
  ctx.row('t1', '10 connections x 2 pipelined creations delayed 600 ms, gone after 100 ms', `${made} of 20 applied`);
}

/** t2: eight 40 MB uploads at once against --max-upload-memory-bytes 16 MB. */
async function uploadMemory(ctx: Ctx): Promise<void> {
  await withServer(ctx, ['--max-upload-memory-bytes', String(16 * 1024 * 1024)], async (server) => {
    const before = peakRss(server.pid);
    const bytes = new Uint8Array(40 * 1024 * 1024);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const form = new FormData();
        form.append('file', new Blob([bytes]), `big-${i}.bin`);
        try {
          const res = await fetch(`${server.base}/v1/files/upload`, {
            method: 'POST',
            headers: { authorization: auth('test_stress_upload') },
            body: form,
          });
          await res.arrayBuffer();
          return res.status;
        } catch {
          return 0;
        }
      }),
    );
    const grown = peakRss(server.pid) - before;
    const counts = [...new Set(statuses)].map((s) => `${statuses.filter((x) => x === s).length} x ${s}`).join(', ');
    ctx.row('t2', '8 x 40 MB uploads at once, --max-upload-memory-bytes 16 MiB', `${counts}; peak RSS +${mb(grown)}`);
  });
}

/** t3: 120 uploads of 10 parts named with 78,000 characters, --max-journal-bytes 4 MiB. */
async function partNames(ctx: Ctx): Promise<void> {
  await withServer(ctx, ['--max-journal-bytes', String(4 * 1024 * 1024)], async (server) => {
    const before = await server.probe();
    const name = 'n'.repeat(78_000);
    await pool(Array.from({ length: 120 }), 8, async () => {
      const form = new FormData();
      for (let part = 0; part < 10; part += 1) form.append(`${name}${part}`, new Blob(['x']), `${name}.bin`);
      const res = await fetch(`${server.base}/v1/files/upload`, {
        method: 'POST',
        headers: { authorization: auth('test_stress_parts') },
        body: form,
      }).catch(() => undefined);
      await res?.arrayBuffer();
    });
    const after = await server.probe();
    ctx.row('t3', '120 uploads x 10 parts with 78,000-character names', `heap +${mb(after.heap - before.heap)}`);
  });
}

/** t4: with --data-dir, creations of a tenant holding 3,000 batches against an empty tenant's. */
async function dataDirWrites(ctx: Ctx): Promise<void> {
  const dir = readFileSync('/proc/sys/kernel/random/uuid', 'utf8').trim();
  await withServer(ctx, ['--data-dir', `/tmp/labelmock-stress-${dir}`], async (server) => {
    const { base } = server;
    const big = 'test_stress_bigaccount';
    await call(base, big, 'POST', '/v1/projects', { type: 'imageannotation', name: 'p' });
    await pool(Array.from({ length: 3000 }), 16, (_, i) =>
      call(base, big, 'POST', '/v1/batches', { project: 'p', name: `b${i}`, metadata: { note: 'm'.repeat(200) } }),
    );
    const body = JSON.stringify(imageBody(ctx.root));
    const median = async (key: string) => {
      const times: number[] = [];
      for (let i = 0; i < 40; i += 1) times.push((await call(base, key, 'POST', '/v1/task/imageannotation', body)).ms);
      return times.sort((a, b) => a - b)[20] ?? Number.NaN;
    };
    const busy = await median(big);
    const small = await median('test_stress_smallaccount');
    ctx.row(
      't4',
      'creation with --data-dir, median of 40: 3,000 batches held vs none',
      `${fmtMs(busy)} vs ${fmtMs(small)}`,
    );
  });
}

/** t5: GET /v2/delivery/tasks pages over a project of 5,000 tasks in 100 deliveries. */
async function deliveryPages(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_deliveries';
  await call(base, key, 'POST', '/v1/projects', { type: 'chat', name: 'p' });
  const ids = await pool(Array.from({ length: 5000 }), 32, async () => {
    const task = (await call(base, key, 'POST', '/v2/task/chat', { project_name: 'p' })).body;
    await call(base, key, 'POST', `/_mock/tasks/${task.task_id}/complete`);
    return task.task_id as string;
  });
  let last = '';
  for (let d = 0; d < 100; d += 1) {
    const taskIds = ids.slice(d * 50, d * 50 + 50);
    last = (await call(base, key, 'POST', '/_mock/v2/deliveries', { name: `d${d}`, project: 'p', task_ids: taskIds }))
      .body.id;
  }
  await ctx.server.probe();
  const page = await sampleLatency(base, () => call(base, key, 'GET', '/v2/delivery/tasks?project_name=p&limit=1'));
  const one = await call(base, key, 'GET', `/v2/delivery?delivery_id=${last}&limit=1`);
  const stall = (await ctx.server.probe()).loopMaxMs;
  ctx.row(
    't5',
    'GET /v2/delivery/tasks?project_name=p&limit=1 (5,000 tasks, 100 deliveries); GET /v2/delivery limit=1',
    `${page.result.status} in ${fmtMs(page.result.ms)}, ${one.status} in ${fmtMs(one.ms)}; loop stall ` +
      `${fmtMs(stall)}; ${fmtLatency(page.latency)}`,
  );
}

/** t7: one key holds 80 hanging requests under --max-held-requests 64; what does another key get? */
async function heldShare(ctx: Ctx): Promise<void> {
  await withServer(ctx, ['--max-held-requests', '64', '--latency', '5'], async (server) => {
    const { base } = server;
    const hanging = Array.from({ length: 80 }, () =>
      fetch(`${base}/v1/tasks`, {
        headers: { authorization: auth('test_stress_hog'), 'Labelmock-Fault': 'fault=hang' },
        signal: AbortSignal.timeout(5000),
      })
        .then((res) => res.status)
        .catch(() => 0),
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const other = await call(base, 'test_stress_other', 'GET', '/v1/tasks');
    const hogStatuses = await Promise.all(hanging);
    const counts = [...new Set(hogStatuses)].map((s) => `${hogStatuses.filter((x) => x === s).length} x ${s}`);
    const measure = '80 hanging requests of one key, --max-held-requests 64 --latency 5';
    ctx.row('t7', measure, `hog: ${counts.join(', ')} (0: held until it gave up); other key: ${other.status}`);
  });
}

/** t8: --host 127.1 and a request whose Host names another site (DNS rebinding). */
async function hostCheck(ctx: Ctx): Promise<void> {
  await withServer(ctx, ['--host', '127.1'], async (server) => {
    // fetch sets Host itself: node:http sends the one given.
    const { port } = new URL(server.base);
    const status = await new Promise<number>((resolve) => {
      const headers = { host: 'rebind.attacker.example', authorization: auth('test_stress_host') };
      const req = request({ host: '127.0.0.1', port, path: '/v1/tasks', headers }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', () => resolve(0));
      req.end();
    });
    ctx.row('t8', '--host 127.1, GET /v1/tasks with Host: rebind.attacker.example', String(status));
  });
}

/** t9: query keys named after Object.prototype members. */
async function prototypeKeys(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const paths = [
    '/v1/tasks?toString[]=x',
    '/v1/tasks?constructor[]=x',
    '/v2/tasks?__proto__[]=x',
    '/_mock/requests?valueOf[]=x',
  ];
  const statuses = await Promise.all(paths.map((path) => call(base, 'test_stress_proto', 'GET', path)));
  ctx.row(
    't9',
    'GET with toString[], constructor[], __proto__[], valueOf[] keys',
    statuses.map((a) => a.status).join(', '),
  );
}

/** ta: cancel of a 5,000-task batch while another key reads. */
async function bigCancel(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_cancel';
  await call(base, key, 'POST', '/v1/projects', { type: 'imageannotation', name: 'p' });
  await call(base, key, 'POST', '/v2/batch', { project_name: 'p', name: 'big', staging_batch: true });
  const body = JSON.stringify(imageBody(ctx.root, { project: 'p', batch: 'big' }));
  await pool(Array.from({ length: 5000 }), 32, () => call(base, key, 'POST', '/v1/task/imageannotation', body));
  const figure = await measured(ctx, () => call(base, key, 'POST', '/v2/batch/cancel', { batch_name: 'big' }));
  ctx.row('ta', 'POST /v2/batch/cancel of a 5,000-task batch', figure);
}

/** tb: pages of updated_after (every task in range) while another client keeps creating, 30,000 tasks. */
async function busyTimePages(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_busytime';
  const body = JSON.stringify(imageBody(ctx.root));
  await pool(Array.from({ length: 30_000 }), 32, () => call(base, key, 'POST', '/v1/task/imageannotation', body));
  const median = async (path: string) => {
    const times: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      // A write before each page: the store's state moves, as under a busy client.
      await call(base, key, 'POST', '/v1/task/imageannotation', body);
      times.push((await call(base, key, 'GET', path)).ms);
    }
    return times.sort((a, b) => a - b)[10] ?? Number.NaN;
  };
  const plain = await median('/v1/tasks?limit=100');
  const timed = await median('/v1/tasks?updated_after=2000-01-01T00:00:00Z&limit=100');
  ctx.row(
    'tb',
    'a page after each write, 30,000 tasks: plain vs updated_after=2000 (median of 21)',
    `${fmtMs(plain)} vs ${fmtMs(timed)}`,
  );
}

export async function thirdRound(ctx: Ctx, wanted: (item: string) => boolean): Promise<void> {
  const steps: [string, (ctx: Ctx) => Promise<void>][] = [
    ['t1', pipelinedLeavers],
    ['t2', uploadMemory],
    ['t3', partNames],
    ['t4', dataDirWrites],
    ['t5', deliveryPages],
    ['t7', heldShare],
    ['t8', hostCheck],
    ['t9', prototypeKeys],
    ['ta', bigCancel],
    ['tb', busyTimePages],
  ];
  await runItems(ctx, 'third round', steps, wanted);
}
