/**
 * Records ordered by one timestamp (completed_at, updated_at): parallel arrays sorted by (ms, seq).
 * A range filter is then two binary searches, and its records one slice, instead of a walk over
 * every task. Timestamps mostly grow, so most moves are a removal plus an append.
 */
export class TimeIndex {
  private readonly times: number[] = [];
  private readonly seqs: number[] = [];

  /** Moves `seq` from `before` to `after` (either may be undefined: not indexed). */
  move(seq: number, before: number | undefined, after: number | undefined): void {
    if (before === after) return;
    if (before !== undefined) {
      const at = this.position(before, seq);
      if (this.times[at] === before && this.seqs[at] === seq) {
        this.times.splice(at, 1);
        this.seqs.splice(at, 1);
      }
    }
    if (after !== undefined) {
      const at = this.position(after, seq);
      this.times.splice(at, 0, after);
      this.seqs.splice(at, 0, seq);
    }
  }

  /** How many records have a time in [from, to]. O(log n). */
  countBetween(from: number, to: number): number {
    return Math.max(0, this.position(to, Infinity) - this.position(from, -Infinity));
  }

  /** The seqs with a time in [from, to], in time order (a copy). */
  seqsBetween(from: number, to: number): number[] {
    return this.seqs.slice(this.position(from, -Infinity), this.position(to, Infinity));
  }

  /** First position whose (time, seq) is >= (ms, seq). */
  private position(ms: number, seq: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= length
      const t = this.times[mid]!;
      // biome-ignore lint/style/noNonNullAssertion: times and seqs always have the same length
      if (t < ms || (t === ms && this.seqs[mid]! < seq)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
