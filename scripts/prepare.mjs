// `npm run prepare`: builds the package (dist/). npm runs it after `npm ci` in this repository, when
// a git URL is installed (npm installs the dev dependencies first), and when a folder is installed
// (`npm i -D ../labelmock`), where a fresh checkout has no node_modules: then the build tools are
// installed here first, from the lockfile, so that install works too.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const npm = (args) => spawnSync('npm', args, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

if (!existsSync(new URL('../node_modules/typescript/package.json', import.meta.url))) {
  console.log('labelmock: this checkout has no build tools yet; installing them from its lockfile (npm ci)');
  // --ignore-scripts: this script is the one that would run; --include=dev: an installing parent may omit dev.
  const code = npm(['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund']);
  if (code !== 0) process.exit(code);
}
process.exit(npm(['run', 'build']));
