import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the heap grow past what a full collection left alive, set once when the bin starts (its own
 * process, as the zod fix is; a library import of labelmock leaves its user's V8 alone).
 *
 * Under a steady load V8 sizes the old generation at up to 2-4 times the live heap before its next full
 * collection, to collect less often. For a server that holds hundreds of MB (journals, tenants' tasks), that
 * headroom is most of its RSS: in the 300-tenant soak (docs/limits.md) the heap held 520-620 MB for 160-290 MB
 * alive. At 30% the same soak ran at the same rate, with the same collection pauses, in 550-800 MB of RSS
 * instead of 850-990 MB. V8 reads the flag at each collection, so setting it here, before the server starts,
 * is as good as the command line's. A user's own `--heap-growing-percent` (node's flags or NODE_OPTIONS) wins.
 */
export const HEAP_GROWING_PERCENT = 30;

function userChoseGrowth(): boolean {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  return given.some((flag) => /^--heap[-_]growing[-_]percent\b/.test(flag));
}

/** Applies the growth limit unless the user set one; answers the percent in force (undefined: V8's own). */
export function limitHeapGrowth(): number | undefined {
  if (userChoseGrowth()) return undefined;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
