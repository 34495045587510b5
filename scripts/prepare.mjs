// `npm run prepare`: builds the package (dist/). npm runs it after `npm ci` in this repository, when
// a git URL is installed (npm installs the dev dependencies first, then packs, which runs it again),
// and when a folder is installed (`npm i -D ../labelmock`), where a fresh checkout has no node_modules:
// then the build tools are installed here first, from the lockfile, so that install works too. A build
// newer than every source file is kept (the second run of a git install costs nothing).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES = [
  'src',
  'contracts',
  'vendor',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.contracts.json',
  'scripts/bundle.mjs',
];
const STAMP = join(ROOT, 'dist', '.built');
const npm = (args) => spawnSync('npm', args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

/** The newest modification time under a path, 0 when it is absent (a folder's own counts: a deleted file). */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

if (existsSync(STAMP) && statSync(STAMP).mtimeMs >= Math.max(...SOURCES.map((s) => newest(join(ROOT, s))))) {
  console.log('labelmock: dist/ is newer than its sources; kept');
  process.exit(0);
}
if (!existsSync(join(ROOT, 'node_modules', 'typescript', 'package.json'))) {
  console.log('labelmock: this checkout has no build tools yet; installing them from its lockfile (npm ci)');
  // --ignore-scripts: this script is the one that would run; --include=dev: an installing parent may omit dev.
  const code = npm(['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund']);
  if (code !== 0) process.exit(code);
}
const code = npm(['run', 'build']);
if (code === 0) writeFileSync(STAMP, '');
process.exit(code);
