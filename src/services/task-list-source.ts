import { lowerBound, mergeDescending, upperBound } from '../store/seq-index.js';
import type { TaskCollection, TimedField } from '../store/task-collection.js';

/**
 * Where a task list walks from: every task (dense seqs), or the union of ascending seq lists taken
 * from an index (one list per filter value, or one list of the tasks inside a time range). The
 * list query picks the smallest source its filters allow, so a page costs about its own size.
 */
export type SeqSource =
  | { kind: 'all'; tasks: TaskCollection }
  | { kind: 'lists'; lists: readonly (readonly number[])[]; disjoint: boolean };

export const allTasks = (tasks: TaskCollection): SeqSource => ({ kind: 'all', tasks });

/** The tasks carrying any of `values` in an equality index. Tags may repeat across values; others cannot. */
export const indexSource = (lists: (readonly number[])[], disjoint: boolean): SeqSource => ({
  kind: 'lists',
  lists,
  disjoint,
});

/**
 * The tasks whose `field` lies in [from, to], as one ascending seq list. Sorting costs O(k log k)
 * for k tasks in range, once per state of the store: the pages that follow reuse it.
 */
export function timeRangeSource(tasks: TaskCollection, field: TimedField, from: number, to: number): SeqSource {
  const list = tasks.cached(`time:${field}:${from}:${to}`, () =>
    tasks
      .timeIndex(field)
      .seqsBetween(from, to)
      .sort((a, b) => a - b),
  );
  return { kind: 'lists', lists: [list], disjoint: true };
}

/** How many seqs in [minSeq, maxSeq] the source holds (exact unless lists overlap). O(log n) per list. */
export function sourceCount(source: SeqSource, minSeq: number, maxSeq: number): number {
  if (source.kind === 'all') return source.tasks.countSeqBetween(minSeq, maxSeq);
  return source.lists.reduce((n, list) => n + Math.max(0, upperBound(list, maxSeq) - lowerBound(list, minSeq)), 0);
}

/**
 * Seqs newest first, from the largest <= maxSeq down to 1, one per call, then 0 (seqs start at 1;
 * callers stop at their lower bound). A plain function, not an iterator: every task and a single
 * index list (most pages) walk with a counter, no generator step and no result object per seq.
 */
export function sourceCursor(source: SeqSource, maxSeq: number): () => number {
  if (source.kind === 'all') {
    let seq = Math.min(maxSeq, source.tasks.size) + 1;
    return () => (seq > 1 ? --seq : 0);
  }
  const [list, ...more] = source.lists;
  if (list !== undefined && more.length === 0) {
    let at = upperBound(list, maxSeq);
    return () => (at > 0 ? (list[--at] ?? 0) : 0);
  }
  const merged = mergeDescending(source.lists.map((one) => descendingFrom(one, maxSeq)));
  return () => {
    const next = merged.next();
    return next.done ? 0 : next.value;
  };
}

/**
 * Where a walk starts after skipping `skip` seqs at or below maxSeq, without visiting them, when the
 * source is one list (or every task); undefined when it must walk (several lists), 0 when past the end.
 */
export function skipInSource(source: SeqSource, maxSeq: number, skip: number): number | undefined {
  if (source.kind === 'all') return Math.max(0, Math.min(maxSeq, source.tasks.size) - skip);
  const [list, ...more] = source.lists;
  if (list === undefined || more.length > 0) return undefined;
  const at = upperBound(list, maxSeq) - 1 - skip;
  return list[at] ?? 0; // at < list.length; a negative at reads undefined: past the end
}

function* descendingFrom(list: readonly number[], maxSeq: number): Generator<number> {
  // biome-ignore lint/style/noNonNullAssertion: i < upperBound <= list.length
  for (let i = upperBound(list, maxSeq) - 1; i >= 0; i -= 1) yield list[i]!;
}
