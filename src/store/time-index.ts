/**
 * Records ordered by one timestamp (completed_at, updated_at): parallel arrays sorted by (ms, seq).
 * A range filter is then two binary searches, and its records one slice, instead of a walk over
 * every task. Timestamps mostly grow, so most moves are a mark plus an append.
 *
 * A record that moves leaves its old entry marked dead rather than removed: removing from the middle
 * of an array shifts everything after it, which made every update of a task cost O(tasks) (a 100,000
 * task tenant spent more on that than on the rest of a completion). Dead entries go in one pass once
 * they are half of the index, so a move costs O(log n) amortized.
 */
export class TimeIndex {
  private times: number[] = [];
  private seqs: number[] = [];
  /** Entries marked dead since the last compaction. */
  private dead = 0;

  /** Moves `seq` from `before` to `after` (either may be undefined: not indexed). */
  move(seq: number, before: number | undefined, after: number | undefined): void {
    if (before === after) return;
    if (before !== undefined) {
      const at = this.position(before, seq);
      if (this.times[at] === before && this.seqs[at] === seq) {
        // seq + 0.5 sorts where seq did among equal times (before seq + 1), so the order holds, and no
        // live seq (an integer) ever equals it.
        this.seqs[at] = seq + DEAD_MARK;
        this.dead += 1;
      }
    }
    if (after !== undefined) {
      const at = this.position(after, seq);
      if (at === this.times.length) {
        this.times.push(after);
        this.seqs.push(seq);
      } else {
        this.times.splice(at, 0, after);
        this.seqs.splice(at, 0, seq);
      }
    }
    if (this.dead >= MIN_DEAD_TO_COMPACT && this.dead * 2 >= this.times.length) this.compact();
  }

  /** How many entries have a time in [from, to], dead ones not yet dropped included: an upper bound, for planning. */
  sizeBetween(from: number, to: number): number {
    return Math.max(0, this.position(to, Infinity) - this.position(from, -Infinity));
  }

  /** How many live entries have a time in [from, to]: exact (one pass over the range while any are dead). */
  countBetween(from: number, to: number): number {
    const start = this.position(from, -Infinity);
    const end = this.position(to, Infinity);
    if (this.dead === 0) return Math.max(0, end - start);
    let count = 0;
    // biome-ignore lint/style/noNonNullAssertion: i < end <= seqs.length
    for (let i = start; i < end; i += 1) if (isLive(this.seqs[i]!)) count += 1;
    return count;
  }

  /** The seqs with a time in [from, to], in time order (a copy). */
  seqsBetween(from: number, to: number): number[] {
    const found: number[] = [];
    for (let i = this.position(from, -Infinity), end = this.position(to, Infinity); i < end; i += 1) {
      // biome-ignore lint/style/noNonNullAssertion: i < end <= seqs.length
      const seq = this.seqs[i]!;
      if (isLive(seq)) found.push(seq);
    }
    return found;
  }

  /** Drops the dead entries, keeping the order. */
  private compact(): void {
    const times: number[] = [];
    const seqs: number[] = [];
    for (let i = 0; i < this.seqs.length; i += 1) {
      // biome-ignore lint/style/noNonNullAssertion: i < seqs.length = times.length
      const seq = this.seqs[i]!;
      if (!isLive(seq)) continue;
      // biome-ignore lint/style/noNonNullAssertion: times and seqs always have the same length
      times.push(this.times[i]!);
      seqs.push(seq);
    }
    this.times = times;
    this.seqs = seqs;
    this.dead = 0;
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

/** Added to a dead entry's seq: seqs are integers, so a live one never has a fraction. */
const DEAD_MARK = 0.5;
/** Small indexes are not worth a pass: they compact once this many entries are dead (and half of them). */
const MIN_DEAD_TO_COMPACT = 64;

const isLive = (seq: number) => seq % 1 === 0;
