import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mutant } from './list.js';

/**
 * The scratch copy the mutants run in, never the work tree: other people edit src/ while this runs,
 * and a patched file left behind in /work/main would break their work. The copy is taken once, so
 * the sanity run and every mutant see the same src/; each mutant patches one file and puts it back.
 */

/** What the in-process contract run reads: its sources, the files src/ loads at run time, the configs. */
const COPIED = [
  'src',
  'contracts',
  'test',
  'fixtures',
  'inspector',
  'openapi.yaml',
  'package.json',
  'vitest.config.ts',
];

export function makeScratch(root: string, scratch: string): void {
  lockScratch(scratch);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const configs = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  for (const entry of [...COPIED, ...configs]) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(scratch, entry), { recursive: true });
  }
  // A link, not a copy: installing is slow and the mutants change no dependency.
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
}

/**
 * One run at a time: a second run would delete the scratch copy under the first. The lock names the
 * holder's pid, so a lock left by a run that was killed does not block the next one.
 */
function lockScratch(scratch: string): void {
  const lock = `${scratch}.lock`;
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
  } catch {
    const holder = Number(readFileSync(lock, 'utf8'));
    if (isAlive(holder)) throw new Error(`another mutant run (pid ${holder}) is using ${scratch}`);
    writeFileSync(lock, String(process.pid));
  }
  process.on('exit', () => rmSync(lock, { force: true }));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return Number.isInteger(pid) && pid > 0;
  } catch {
    return false;
  }
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
