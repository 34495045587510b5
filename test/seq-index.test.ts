import { describe, expect, it } from 'vitest';
import { mergeDescending, SeqIndex } from '../src/store/seq-index.js';

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
