/**
 * Preloaded into the server by the stress script (`node --expose-gc --import <this file>`), plain JavaScript so
 * the server runs as users run it (no TypeScript loader in its process); it
 * imports nothing from the app. On SIGUSR2 it writes one line to stderr:
 *   @@probe {"heap":..., "rss":..., "loopMaxMs":..., "gcMaxMs":..., "forcedMs":...}
 * heap after a full garbage collection, the longest event-loop stall since the last probe, the longest
 * garbage collection pause in that time (a stall no longer than it is the collector's), and how long the probe's
 * own full collections took (left out of the other two).
 */
import { readFileSync, writeSync } from 'node:fs';
import { Server } from 'node:http';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

/** When the probe's own forced collections ran: those pauses are the probe's, not the server's. */
let forced = { from: 0, to: 0 };
const overlapsForced = (from, to) => from <= forced.to && to >= forced.from;

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
Server.prototype.emit = function countRequests(event, ...args) {
  if (event === 'request') requests += 1;
  return emit.apply(this, [event, ...args]);
};
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
function mainThreadCpuMs() {
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
  const gc = globalThis.gc;
  const from = performance.now();
  gc?.();
  gc?.();
  forced = { from, to: performance.now() };
  const forcedMs = forced.to - forced.from;
  const stats = getHeapStatistics();
  const heap = stats.used_heap_size;
  let rss = NaN;
  try {
    // Reads /proc/self/stat: fails (EMFILE) in a process out of descriptors, which must not crash it.
    rss = process.memoryUsage.rss();
  } catch {
    // reported as NaN
  }
  const { external, arrayBuffers } = safeMemory();
  const memory = { heap, external, arrayBuffers, rss, ...rssParts(), ...heapParts(stats) };
  writeSync(2, `\n@@probe ${JSON.stringify({ ...memory, ...figures, forcedMs })}\n`);
});

/**
 * Where the heap's memory is: committed (what V8 holds) and resident (what it touched), by space, and
 * what V8 itself holds through malloc (outside its heap: zone memory of the compilers, handles).
 */
function heapParts(stats) {
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { committed: s.space_size, physical: s.physical_space_size }]),
  );
  return {
    heapCommitted: stats.total_heap_size,
    heapPhysical: stats.total_physical_size,
    v8Malloced: stats.malloced_memory,
    v8MallocedPeak: stats.peak_malloced_memory,
    spaces,
  };
}

/** RSS split by the kernel: anonymous (heaps, malloc, stacks) and file-backed (node's own code) pages. */
function rssParts() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
    const threads = Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), threads };
  } catch {
    return { rssAnon: NaN, rssFile: NaN, threads: NaN };
  }
}

function safeMemory() {
  try {
    const { external, arrayBuffers } = process.memoryUsage();
    return { external, arrayBuffers };
  } catch {
    return { external: NaN, arrayBuffers: NaN };
  }
}
