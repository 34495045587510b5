import { afterEach, describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../src/heap-growth.js';

/** The bin's limit on V8's heap growth (src/heap-growth.ts): applied unless the user chose one. */

const options = process.env.NODE_OPTIONS;
afterEach(() => {
  if (options === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = options;
});

describe('the bin limits V8 heap growth', () => {
  it('applies its percent when neither node flags nor NODE_OPTIONS name one', () => {
    delete process.env.NODE_OPTIONS;
    expect(limitHeapGrowth()).toBe(HEAP_GROWING_PERCENT);
  });

  it.each(['--heap-growing-percent=50', '--max-old-space-size=512 --heap_growing_percent=10'])(
    'leaves the choice to the user when NODE_OPTIONS says %s',
    (given) => {
      process.env.NODE_OPTIONS = given;
      expect(limitHeapGrowth()).toBeUndefined();
    },
  );
});
