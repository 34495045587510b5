/**
 * Preloaded into the server by the stress script (`node --expose-gc --import <this file>`); it
 * imports nothing from the app. On SIGUSR2 it writes one line to stderr:
 *   @@probe {"heap":..., "rss":..., "loopMaxMs":...}
 * heap after a full garbage collection, and the longest event-loop stall since the last probe.
 */
import { writeSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();

process.on('SIGUSR2', () => {
  const loopMaxMs = loop.max / 1e6;
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  const heap = getHeapStatistics().used_heap_size;
  let rss = NaN;
  try {
    // Reads /proc/self/stat: fails (EMFILE) in a process out of descriptors, which must not crash it.
    rss = process.memoryUsage.rss();
  } catch {
    // reported as NaN
  }
  const { external, arrayBuffers } = safeMemory();
  writeSync(2, `\n@@probe ${JSON.stringify({ heap, external, arrayBuffers, rss, loopMaxMs })}\n`);
  // Later, so the stall of the collection itself is not counted against the next scenario.
  setTimeout(() => loop.reset(), 50);
});

function safeMemory(): { external: number; arrayBuffers: number } {
  try {
    const { external, arrayBuffers } = process.memoryUsage();
    return { external, arrayBuffers };
  } catch {
    return { external: NaN, arrayBuffers: NaN };
  }
}
