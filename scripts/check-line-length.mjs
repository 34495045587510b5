// Lists the lines longer than 120 characters in the project's code (part of npm run lint).
//
// Why: the house style caps lines at 120 characters, and Biome's formatter enforces that for code
// but leaves long strings, template literals and comments alone. Files are the tracked and the
// untracked-but-not-ignored .ts, .mjs, .cjs and .py files under src/, contracts/, scripts/, test/, inspector/, python/,
// except what a generator writes (contracts/kit/documents/: openapi-typescript's, which quotes the documents' prose).
//
//   node scripts/check-line-length.mjs  prints `file:line: N characters` per long line; exit 1 if any
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX = 120;
const FOLDERS = ['src', 'contracts', 'scripts', 'test', 'inspector', 'python'];
const EXTENSION = /\.(ts|mjs|cjs|py)$/;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...FOLDERS], {
  cwd: ROOT,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
// A Set: a file with merge conflicts is listed once per stage.
const GENERATED = 'contracts/kit/documents/';
const files = [...new Set(listed.split('\0'))]
  .filter((file) => EXTENSION.test(file) && !file.startsWith(GENERATED))
  .sort();

let count = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(join(ROOT, file), 'utf8');
  } catch (error) {
    // A tracked file deleted in the working tree is still listed by --cached.
    if (error.code === 'ENOENT') continue;
    throw error;
  }
  text.split(/\r?\n/).forEach((line, index) => {
    // Characters, not UTF-16 code units: an emoji or other astral character counts once.
    const length = [...line].length;
    if (length <= MAX) return;
    count += 1;
    console.log(`${file}:${index + 1}: ${length} characters`);
  });
}

if (count > 0) {
  console.error(`${count} line(s) longer than ${MAX} characters`);
  process.exit(1);
}
