import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from './list.js';

/**
 * The scratch copy the mutants run in, never the work tree: other people edit src/ while this runs,
 * and a patched file left behind in /work/main would break their work. The copy is taken once, so
 * the sanity run and every mutant see the same src/; each mutant patches one file and puts it back.
 */

/** What the in-process contract run reads: its sources, the files src/ loads at run time, the configs. */
const COPIED = ['src', 'contracts', 'test', 'fixtures', 'inspector', 'openapi.yaml', 'package.json', 'vitest.config.ts'];

export function makeScratch(root: string, scratch: string): void {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const configs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  for (const entry of [...COPIED, ...configs]) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(scratch, entry), { recursive: true });
  }
  // A link, not a copy: installing is slow and the mutants change no dependency.
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
}

/** Applies the mutant's patch in the scratch copy; answers the undo. Throws unless `find` occurs exactly once. */
export function applyMutant(scratch: string, mutant: Mutant): () => void {
  const path = join(scratch, 'src', mutant.file);
  const original = readFileSync(path, 'utf8');
  const count = original.split(mutant.find).length - 1;
  if (count !== 1) {
    throw new Error(`mutant ${mutant.name}: src/${mutant.file} holds its find string ${count} times, not once`);
  }
  // A function replacement: `$&` and friends in `replace` stay literal.
  writeFileSync(
    path,
    original.replace(mutant.find, () => mutant.replace),
  );
  return () => writeFileSync(path, original);
}
