import { request } from 'node:http';
import { auth, call, fmtLatency, fmtMs, pool, sampleLatency } from './http.js';
import { measured } from './measured.js';
import { type Ctx, imageBody, runItems } from './report.js';

/**
 * The second hardening round's items (r1, r2, r5, r6, r12): a backtracking glob, HEAD event streams, a journal of
 * large callbacks, a request journal of 8 KiB bodies, and event streams of many keys under ulimit -n 1024.
 */

/** r1: a fault rule glob that a backtracking regex takes tens of seconds over, against an 80-character segment. */
async function glob(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_glob';
  // Under /v1/task/: a rule must meet a served route (here GET /v1/task/{taskId}) to be taken.
  await call(base, key, 'POST', '/_mock/faults', { path: '/v1/task/*a*a*a*a*a*a*b', status: 503 });
  await ctx.server.probe();
  const probed = await sampleLatency(base, () => call(base, key, 'GET', `/v1/task/${'a'.repeat(80)}`));
  const stall = (await ctx.server.probe()).loopMaxMs;
  const figure = `${probed.result.status} in ${fmtMs(probed.result.ms)}; loop stall ${fmtMs(stall)}`;
  ctx.row(
    'r1',
    'fault rule /v1/task/*a*a*a*a*a*a*b, then GET of an 80-character task id',
    `${figure}; ${fmtLatency(probed.latency)}`,
  );
}

/** r2: HEAD /_mock/events 50 times, then a GET subscription. */
async function headEvents(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_head';
  const heads = await pool(Array.from({ length: 50 }), 10, () => call(base, key, 'HEAD', '/_mock/events'));
  const statuses = [...new Set(heads.map((answer) => answer.status))].join(',');
  const stream = await openStream(base, key);
  ctx.row('r2', '50 x HEAD /_mock/events, then GET /_mock/events', `HEAD ${statuses}; GET ${stream.status}`);
  stream.close();
}

/** r5: 20 deliveries of a task with a 1 MB instruction, then GET /_mock/callbacks. */
async function largeCallbacks(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_callbacks';
  // An e-mail target: journaled, never sent (no request leaves this machine).
  const body = imageBody(ctx.root, { instruction: 'i'.repeat(1_000_000), callback_url: 'hooks@example.com' });
  const task = (await call(base, key, 'POST', '/v1/task/imageannotation', body)).body;
  for (let i = 0; i < 20; i += 1) {
    if (i > 0) await call(base, key, 'POST', `/_mock/tasks/${task.task_id}/redo`);
    await call(base, key, 'POST', `/_mock/tasks/${task.task_id}/complete`);
  }
  const before = await ctx.server.probe();
  const read = await sampleLatency(base, () => call(base, key, 'GET', '/_mock/callbacks'));
  const after = await ctx.server.probe();
  const size = JSON.stringify(read.result.body).length;
  ctx.row(
    'r5',
    'GET /_mock/callbacks of 20 deliveries of a task with a 1 MB instruction',
    `${read.result.status}, ${(size / 1e6).toFixed(1)} MB in ${fmtMs(read.result.ms)}; loop stall ` +
      `${fmtMs(after.loopMaxMs)}; heap ${(before.heap / 1e6).toFixed(0)} MB; ${fmtLatency(read.latency)}`,
  );
}

/** r6: 1,000 journal entries with 8 KiB bodies, then GET /_mock/requests?limit=1000. */
async function requestJournal(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const key = 'test_stress_journal';
  const body = imageBody(ctx.root, { metadata: { note: 'x'.repeat(8192) } });
  await pool(Array.from({ length: 1000 }), 8, () => call(base, key, 'POST', '/v1/task/imageannotation', body));
  const figure = await measured(ctx, () => call(base, key, 'GET', '/_mock/requests?limit=1000'));
  ctx.row('r6', 'GET /_mock/requests?limit=1000 of 1,000 entries with 8 KiB bodies', figure);
}

/** r12: 1,100 event streams over 110 keys (10 each) under ulimit -n 1024, then a fresh key's GET /v1/tasks. */
async function manyStreams(ctx: Ctx): Promise<void> {
  const { base } = ctx.server;
  const streams = await pool(Array.from({ length: 1100 }), 50, (_, i) => openStream(base, `test_stress_s${i % 110}`));
  const open = streams.filter((stream) => stream.status === 200).length;
  const refused = streams.filter((stream) => stream.status === 503).length;
  const fresh = await call(base, 'test_stress_fresh', 'GET', '/v1/tasks');
  ctx.row(
    'r12',
    '1,100 event streams over 110 keys (ulimit -n 1024), then a fresh key GET /v1/tasks',
    `${open} open, ${refused} refused (503), ${1100 - open - refused} failed; fresh key ${fresh.status}`,
  );
  for (const stream of streams) stream.close();
}

/** A GET /_mock/events held open: its status once the headers came, and a way to end it. */
function openStream(base: string, key: string): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve) => {
    const req = request(`${base}/_mock/events`, { headers: { authorization: auth(key) } }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
    });
    req.on('error', () => resolve({ status: 0, close: () => {} }));
    req.end();
  });
}

export async function secondRound(ctx: Ctx, wanted: (item: string) => boolean): Promise<void> {
  const steps: [string, (ctx: Ctx) => Promise<void>][] = [
    ['r1', glob],
    ['r2', headEvents],
    ['r5', largeCallbacks],
    ['r6', requestJournal],
    ['r12', manyStreams],
  ];
  await runItems(ctx, 'second round', steps, wanted);
}
