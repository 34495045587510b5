/**
 * Preloaded into the server by the stress script (`node --expose-gc --import <this file>`); it
 * imports nothing from the app. On SIGUSR2 it writes one line to stderr:
 *   @@probe {"heap":..., "rss":..., "loopMaxMs":..., "gcMaxMs":..., "forcedMs":...}
 * heap after a full garbage collection, the longest event-loop stall since the last probe, the longest
 * garbage collection pause in that time (a stall no longer than it is the collector's), and how long the probe's
 * own full collections took (left out of the other two).
 */
import { readFileSync, writeSync } from 'node:fs';
import { Server } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** When the probe's own forced collections ran: those pauses are the probe's, not the server's. */
let forced = { from: 0, to: 0 };
const overlapsForced = (from: number, to: number) => from <= forced.to && to >= forced.from;

// Stalls: a 10 ms interval's lateness (what monitorEventLoopDelay measures, but one that can leave out the
// probe's own collections, which would otherwise count as the server's stall).
const TICK_MS = 10;
let loopMaxMs = 0;
/** Of the longest stall, the CPU time the main thread itself used (the rest it waited for a core). */
let loopMaxRanMs = 0;
/** Requests the server began during the longest stall: many means a burst was served in one turn, not one slow. */
let loopMaxRequests = 0;
let requests = 0;
const emit = Server.prototype.emit;
Server.prototype.emit = function countRequests(this: Server, event: string | symbol, ...args: unknown[]) {
  if (event === 'request') requests += 1;
  return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
} as typeof emit;
let lastTick = performance.now();
let lastCpu = mainThreadCpuMs();
let lastRequests = 0;
setInterval(() => {
  const now = performance.now();
  const cpu = mainThreadCpuMs();
  const late = now - lastTick - TICK_MS;
  if (!overlapsForced(lastTick, now) && late > loopMaxMs) {
    loopMaxMs = late;
    loopMaxRanMs = cpu - lastCpu;
    loopMaxRequests = requests - lastRequests;
  }
  lastTick = now;
  lastCpu = cpu;
  lastRequests = requests;
}, TICK_MS).unref();

/** The main thread's user and system time (Linux, 10 ms ticks; NaN elsewhere). */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

let gcMaxMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (overlapsForced(entry.startTime, entry.startTime + entry.duration)) continue;
    gcMaxMs = Math.max(gcMaxMs, entry.duration);
  }
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  const figures = { loopMaxMs, loopMaxRanMs, loopMaxRequests, gcMaxMs };
  loopMaxMs = 0;
  loopMaxRanMs = 0;
  loopMaxRequests = 0;
  gcMaxMs = 0;
  const gc = (globalThis as { gc?: () => void }).gc;
  const from = performance.now();
  gc?.();
  gc?.();
  forced = { from, to: performance.now() };
  const forcedMs = forced.to - forced.from;
  const heap = getHeapStatistics().used_heap_size;
  let rss = NaN;
  try {
    // Reads /proc/self/stat: fails (EMFILE) in a process out of descriptors, which must not crash it.
    rss = process.memoryUsage.rss();
  } catch {
    // reported as NaN
  }
  const { external, arrayBuffers } = safeMemory();
  writeSync(2, `\n@@probe ${JSON.stringify({ heap, external, arrayBuffers, rss, ...figures, forcedMs })}\n`);
});

function safeMemory(): { external: number; arrayBuffers: number } {
  try {
    const { external, arrayBuffers } = process.memoryUsage();
    return { external, arrayBuffers };
  } catch {
    return { external: NaN, arrayBuffers: NaN };
  }
}
