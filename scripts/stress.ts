/**
 * Reproduces the hardening issue's items against a real server and prints the figures:
 * latency of other tenants under big requests, descriptors with hanging callback receivers,
 * memory per idle tenant and for expired idempotency keys, clock bounds, the callback journal,
 * time filters at 10 vs 20,000 tasks, and the time from SIGTERM to exit; and the second round's items
 * (r1 glob, r2 HEAD events, r5 large callbacks, r6 request journal, r12 streams of many keys); and the third
 * round's (t1 pipelined leavers, t2 upload memory, t3 part names, t4 --data-dir writes, t5 delivery pages, t7 the
 * held share, t8 --host 127.1, t9 prototype keys, ta a 5,000-task cancel, tb time-filtered pages of a busy store).
 *
 *   npm run stress                      all of it (about two minutes)
 *   npm run stress -- --only 3,4,7      some items (--only r1,r12: the second round's; t1,tb: the third's)
 *   npm run stress -- --root DIR        another checkout, built (e.g. an older commit for "before" figures)
 *
 * The server runs as a child process (`src/cli.ts --port 0`) under `ulimit -n 1024`, with a probe
 * preloaded (scripts/stress/probe.ts) that reports heap after GC and the longest event-loop stall.
 * Figures are printed, never asserted: they depend on the machine.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bigRequests } from './stress/big-requests.js';
import { clockBounds } from './stress/clock.js';
import { largeExport } from './stress/export.js';
import { hangingReceivers } from './stress/hanging-receivers.js';
import { memory } from './stress/memory.js';
import { type Ctx, printTable, type Row } from './stress/report.js';
import { secondRound } from './stress/second-round.js';
import { startServer } from './stress/server.js';
import { shutdown } from './stress/shutdown.js';
import { stateImport } from './stress/state-import.js';
import { thirdRound } from './stress/third-round.js';
import { timeFilters } from './stress/time-filters.js';

const { values } = parseArgs({ options: { root: { type: 'string' }, only: { type: 'string' } } });
const root = resolve(values.root ?? new URL('..', import.meta.url).pathname);
const only = values.only ? new Set(values.only.split(',')) : undefined;
const wanted = (...items: string[]) => !only || items.some((item) => only.has(item));

async function main(): Promise<void> {
  const server = await startServer(root, 1024);
  const rows: Row[] = [];
  const ctx: Ctx = { root, server, rows, row: (item, measure, figure) => rows.push({ item, measure, figure }) };
  console.log(`labelmock stress: ${root}, server pid ${server.pid} at ${server.base}`);
  // Should a step wait on something that can no longer happen, the figures so far still come out.
  process.once('beforeExit', () => {
    console.log('stress: a step waited on nothing and the script ran dry; figures so far:');
    printTable(rows);
  });
  const steps: [string[], string, () => Promise<unknown>][] = [
    [['6'], 'memory', () => memory(ctx)],
    [['5'], 'clock', () => clockBounds(ctx)],
    [['1', '2', '4'], 'big requests', () => bigRequests(ctx)],
    [['4'], 'state import', () => stateImport(ctx)],
    [['4', '6'], 'export', () => largeExport(ctx)],
    [['8'], 'time filters', () => timeFilters(ctx)],
  ];
  for (const [items, name, run] of steps) {
    if (!wanted(...items)) continue;
    console.log(`... ${name}`);
    await run().catch((err) => ctx.row(items.join(','), name, `script error: ${(err as Error).message}`));
  }
  await secondRound(ctx, (item) => wanted(item));
  await thirdRound(ctx, (item) => wanted(item));
  let closeReceiver = () => {};
  if (wanted('3')) {
    console.log('... hanging receivers');
    closeReceiver = await hangingReceivers(ctx).catch((err) => {
      ctx.row('3', 'hanging receivers', `script error: ${(err as Error).message}`);
      return () => {};
    });
  }
  if (wanted('7')) {
    console.log('... shutdown');
    await shutdown(ctx);
  } else {
    server.child.kill('SIGKILL');
  }
  closeReceiver();
  printTable(rows);
  process.exit(0);
}

void main();
