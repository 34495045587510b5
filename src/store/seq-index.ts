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
    const last = list[list.length - 1];
    if (last === undefined || last < seq) list.push(seq);
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
    // biome-ignore lint/style/noNonNullAssertion: lowerBound <= i < upperBound <= list.length
    for (let i = lowerBound(list, minSeq), end = upperBound(list, maxSeq); i < end; i += 1) visit(list[i]!);
  }

  /** Seqs with `key`, newest first, starting at the largest seq <= maxSeq. */
  *descending(key: string, maxSeq: number): Generator<number> {
    const list = this.lists.get(key);
    if (!list) return;
    // biome-ignore lint/style/noNonNullAssertion: i < upperBound <= list.length
    for (let i = upperBound(list, maxSeq) - 1; i >= 0; i -= 1) yield list[i]!;
  }
}

/** First index whose value is >= target. */
export function lowerBound(list: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= list.length
    if (list[mid]! < target) lo = mid + 1;
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
    // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= list.length
    if (list[mid]! <= target) lo = mid + 1;
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
    let value = 0;
    for (let i = 0; i < heads.length; i += 1) {
      // biome-ignore lint/style/noNonNullAssertion: i < heads.length
      const head = heads[i]!;
      if (!head.done && (best === -1 || head.value > value)) {
        best = i;
        value = head.value;
      }
    }
    if (best === -1) return;
    // biome-ignore lint/style/noNonNullAssertion: heads has one entry per stream, and best indexes heads
    heads[best] = streams[best]!.next();
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
    // biome-ignore lint/style/noNonNullAssertion: lowerBound <= i < upperBound <= base.length
    const seq = base[i]!;
    let inAll = true;
    for (let k = 0; k < others.length; k += 1) {
      // biome-ignore lint/style/noNonNullAssertion: k < others.length
      const list = others[k]!;
      // biome-ignore lint/style/noNonNullAssertion: cursors has one entry per list
      let at = cursors[k]!;
      // biome-ignore lint/style/noNonNullAssertion: at < list.length
      while (at < list.length && list[at]! < seq) at += 1;
      cursors[k] = at;
      if (list[at] !== seq) inAll = false;
    }
    if (inAll) count += 1;
  }
  return count;
}
