/**
 * A secondary index: for each key, the ascending list of record sequence numbers carrying it.
 * New records get the highest seq, so adding is an append; walking newest-first is a reverse walk
 * from a binary-searched start, which is what makes a list page cost O(page), not O(store).
 */
export class SeqIndex {
  private readonly lists = new Map<string, number[]>();

  add(key: string, seq: number): void {
    const list = this.lists.get(key);
    if (!list) {
      this.lists.set(key, [seq]);
      return;
    }
    if (list.length === 0 || list[list.length - 1] < seq) list.push(seq);
    else {
      const at = lowerBound(list, seq);
      if (list[at] !== seq) list.splice(at, 0, seq);
    }
  }

  remove(key: string, seq: number): void {
    const list = this.lists.get(key);
    if (!list) return;
    const at = lowerBound(list, seq);
    if (list[at] === seq) list.splice(at, 1);
    if (list.length === 0) this.lists.delete(key);
  }

  /** How many records with `key` have a seq in [minSeq, maxSeq]. O(log n). */
  countBetween(key: string, minSeq: number, maxSeq: number): number {
    const list = this.lists.get(key);
    if (!list) return 0;
    return Math.max(0, upperBound(list, maxSeq) - lowerBound(list, minSeq));
  }

  /** The ascending seqs with `key` (shared, not a copy: read only). */
  list(key: string): readonly number[] {
    return this.lists.get(key) ?? [];
  }

  /** Each seq with `key` in [minSeq, maxSeq], oldest first: a plain loop for counting walks. */
  forEachBetween(key: string, minSeq: number, maxSeq: number, visit: (seq: number) => void): void {
    const list = this.lists.get(key);
    if (!list) return;
    for (let i = lowerBound(list, minSeq), end = upperBound(list, maxSeq); i < end; i += 1) visit(list[i]);
  }

  /** Seqs with `key`, newest first, starting at the largest seq <= maxSeq. */
  *descending(key: string, maxSeq: number): Generator<number> {
    const list = this.lists.get(key);
    if (!list) return;
    for (let i = upperBound(list, maxSeq) - 1; i >= 0; i -= 1) yield list[i];
  }
}

/** First index whose value is >= target. */
export function lowerBound(list: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > target. */
export function upperBound(list: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Merges several newest-first seq streams into one newest-first stream without duplicates. */
export function* mergeDescending(streams: Iterator<number>[]): Generator<number> {
  const heads = streams.map((s) => s.next());
  let last = Infinity;
  for (;;) {
    let best = -1;
    for (let i = 0; i < heads.length; i += 1) {
      if (!heads[i].done && (best === -1 || heads[i].value > heads[best].value)) best = i;
    }
    if (best === -1) return;
    const value = heads[best].value as number;
    heads[best] = streams[best].next();
    if (value !== last) yield value;
    last = value;
  }
}

/**
 * How many seqs in [minSeq, maxSeq] of `base` are also in every one of `others` (all ascending):
 * a merge of sorted lists, with no record looked at.
 */
export function countIntersection(
  base: readonly number[],
  others: (readonly number[])[],
  minSeq: number,
  maxSeq: number,
): number {
  const cursors = others.map((list) => lowerBound(list, minSeq));
  let count = 0;
  for (let i = lowerBound(base, minSeq), end = upperBound(base, maxSeq); i < end; i += 1) {
    const seq = base[i];
    let inAll = true;
    for (let k = 0; k < others.length; k += 1) {
      const list = others[k];
      while (cursors[k] < list.length && list[cursors[k]] < seq) cursors[k] += 1;
      if (list[cursors[k]] !== seq) inAll = false;
    }
    if (inAll) count += 1;
  }
  return count;
}
