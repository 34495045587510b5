import { setImmediate } from 'node:timers/promises';

/**
 * Work done in slices with a turn of the event loop between them: a request that walks thousands of records
 * (a batch's cancel, an import, an export) lets other tenants' requests run meanwhile instead of stalling them.
 */

/** Resolves on the next turn of the event loop, after the I/O that is waiting. */
export const nextTurn = (): Promise<void> => setImmediate();

/** Records one slice walks before the next turn: about 10-20 ms of work for the heaviest (a task's cancel). */
export const SLICE = 250;

/** `each` over the items, SLICE of them per turn of the event loop. */
export async function eachInSlices<T>(items: readonly T[], each: (item: T, index: number) => void): Promise<void> {
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await nextTurn();
    const end = Math.min(items.length, start + SLICE);
    for (let index = start; index < end; index++) each(items[index] as T, index);
  }
}
