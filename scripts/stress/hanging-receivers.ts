import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { call, fmtLatency, fmtMs, pool, sampleLatency } from './http.js';
import { type Ctx, imageBody } from './report.js';

const TASKS = 1000;
const WATCH_MS = 15_000;

/** A receiver that accepts every connection, reads what comes and never answers. */
async function hangingReceiver() {
  const sockets = new Set<Socket>();
  let peak = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    socket.on('data', () => {});
    socket.on('error', () => {});
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    open: () => sockets.size,
    peak: () => peak,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * Item 3: 1,000 tasks whose callback_url accepts and never answers, completed at once (default
 * settings: 10 s timeout, 20 attempts over 24 h). Watches the server's open descriptors and other
 * tenants' latency for 15 s, long enough for the first timeouts and the first retries.
 * The receiver stays up (its deliveries keep retrying) until `close` is called.
 */
export async function hangingReceivers(ctx: Ctx): Promise<() => void> {
  const { base } = ctx.server;
  const key = 'test_stress_hang';
  const receiver = await hangingReceiver();
  const baseline = ctx.server.fds();
  await call(base, key, 'PATCH', '/_mock/settings', { completion: { mode: 'immediate' } });
  const body = JSON.stringify(imageBody(ctx.root, { callback_url: receiver.url }));
  let peakFds = baseline;
  await ctx.server.probe();
  const watch = setInterval(() => {
    try {
      peakFds = Math.max(peakFds, ctx.server.fds());
    } catch {
      // the process is gone: reported by the latency figures
    }
  }, 100);
  // The flood of creates is load of its own (reported apart); the watch after it is what the receivers cost.
  const flood = await sampleLatency(base, () =>
    pool([...Array(TASKS).keys()], 50, () => call(base, key, 'POST', '/v1/task/imageannotation', body)),
  );
  const floodLoop = (await ctx.server.probe()).loopMaxMs;
  const result = flood.result;
  const { latency } = await sampleLatency(base, () => new Promise((resolve) => setTimeout(resolve, WATCH_MS)));
  clearInterval(watch);
  const loop = (await ctx.server.probe()).loopMaxMs;
  const ok = result.filter((a) => a.status === 200).length;
  const journal = await call(base, key, 'GET', '/_mock/callbacks');
  const deliveries = Array.isArray(journal.body?.deliveries) ? journal.body.deliveries : [];
  const attempted = deliveries.filter((d: { attempts: unknown[] }) => d.attempts.length > 0).length;
  ctx.row(
    '3',
    `${TASKS} creates with a hanging callback_url (${ok} answered 200)`,
    `server fds peak ${peakFds} (baseline ${baseline}, ulimit 1024); ` +
      `receiver connections peak ${receiver.peak()}, open now ${receiver.open()}`,
  );
  ctx.row(
    '3',
    `the ${TASKS} creates themselves, 50 at a time (load, before any delivery hangs)`,
    `loop stall ${fmtMs(floodLoop)}; ${fmtLatency(flood.latency)}`,
  );
  ctx.row(
    '3',
    `other tenants in the ${WATCH_MS / 1000} s after, deliveries hanging and retrying`,
    `loop stall ${fmtMs(loop)}; ${fmtLatency(latency)}`,
  );
  ctx.row(
    '3',
    'callback journal after the watch',
    `${deliveries.length} entries, ${attempted} with a finished attempt (journal answered ${journal.status})`,
  );
  return receiver.close;
}
