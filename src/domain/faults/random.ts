/**
 * mulberry32: a tiny seeded generator. A rule's probability is drawn from its own, so the same seed and the
 * same requests give the same fire/skip sequence on every run.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seed for a rule given none; the rule shows it, so a run can be repeated with it. */
export const drawSeed = (): number => Math.floor(Math.random() * 2 ** 32);
