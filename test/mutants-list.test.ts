import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../scripts/mutants/list.js';

// scripts/mutants.ts measures how many one-rule breakages the contracts catch; a patch that no longer
// applies because src/ moved on would make that figure silently wrong, so each is checked here.
describe('the mutants of scripts/mutants/list.ts', () => {
  it.each(MUTANTS.map((m) => [m.name, m] as const))('%s still patches exactly one place of src/', (_name, mutant) => {
    const text = readFileSync(new URL(`../src/${mutant.file}`, import.meta.url), 'utf8');
    expect(text.split(mutant.find).length - 1).toBe(1);
    expect(mutant.replace).not.toBe(mutant.find);
  });

  it('have unique names', () => {
    const names = MUTANTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
