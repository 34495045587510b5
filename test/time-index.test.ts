import { describe, expect, it } from 'vitest';
import { TimeIndex } from '../src/store/time-index.js';

/** What the index must answer: the seqs whose time is in [from, to], by (time, seq). */
function expected(model: Map<number, number>, from: number, to: number): number[] {
  return [...model]
    .filter(([, ms]) => ms >= from && ms <= to)
    .sort(([a, ta], [b, tb]) => ta - tb || a - b)
    .map(([seq]) => seq);
}

/** A small deterministic generator (mulberry32): the same moves on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('TimeIndex', () => {
  it('answers every range like a plain map through thousands of moves, back to earlier times included', () => {
    const index = new TimeIndex();
    const model = new Map<number, number>();
    const next = random(7);
    for (let step = 0; step < 5000; step += 1) {
      const seq = 1 + Math.floor(next() * 300);
      const before = model.get(seq);
      // Mostly later times (as updated_at moves), some earlier or equal ones, some removals.
      const roll = next();
      const after = roll < 0.1 ? undefined : roll < 0.3 ? Math.floor(next() * 50) : 50 + step;
      index.move(seq, before, after);
      if (after === undefined) model.delete(seq);
      else model.set(seq, after);
      if (step % 25 === 0) {
        const from = Math.floor(next() * 60);
        expect(index.seqsBetween(from, from + 2000)).toEqual(expected(model, from, from + 2000));
        expect(index.seqsBetween(-Infinity, Infinity)).toEqual(expected(model, -Infinity, Infinity));
      }
    }
    expect(index.seqsBetween(-Infinity, Infinity)).toEqual(expected(model, -Infinity, Infinity));
    expect(index.sizeBetween(-Infinity, Infinity)).toBeGreaterThanOrEqual(model.size);
  });

  it('keeps a record moved away and back to one time once', () => {
    const index = new TimeIndex();
    index.move(1, undefined, 10);
    index.move(2, undefined, 10);
    index.move(1, 10, 20);
    index.move(1, 20, 10);
    index.move(1, 10, 10);
    expect(index.seqsBetween(0, 100)).toEqual([1, 2]);
    expect(index.seqsBetween(15, 25)).toEqual([]);
  });
});
