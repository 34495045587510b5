import { describe, expect, it } from 'vitest';
import { countIntersection, mergeDescending, SeqIndex } from '../src/store/seq-index.js';

describe('SeqIndex', () => {
  it('keeps seqs sorted under out-of-order adds and removes', () => {
    const index = new SeqIndex();
    for (const seq of [5, 1, 9, 3, 7, 3]) index.add('k', seq);
    index.remove('k', 9);
    index.remove('k', 4);
    expect([...index.descending('k', Infinity)]).toEqual([7, 5, 3, 1]);
    expect([...index.descending('k', 6)]).toEqual([5, 3, 1]);
    expect(index.countBetween('k', 2, 7)).toBe(3);
    expect(index.countBetween('absent', 0, 100)).toBe(0);
  });

  it('merges newest-first streams without duplicates', () => {
    const merged = mergeDescending([[9, 5, 2][Symbol.iterator](), [8, 5, 1][Symbol.iterator]()]);
    expect([...merged]).toEqual([9, 8, 5, 2, 1]);
  });
});

describe('countIntersection', () => {
  it('counts seqs in range present in every list', () => {
    expect(
      countIntersection(
        [1, 3, 5, 7, 9],
        [
          [3, 4, 5, 9],
          [1, 5, 9],
        ],
        0,
        100,
      ),
    ).toBe(2);
    expect(countIntersection([1, 3, 5, 7, 9], [[3, 4, 5, 9]], 4, 8)).toBe(1);
    expect(countIntersection([2, 4], [], 0, 10)).toBe(2);
    expect(countIntersection([2, 4], [[]], 0, 10)).toBe(0);
  });
});
