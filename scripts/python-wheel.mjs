// `npm run python:wheel`: builds pytest-labelmock's wheel and sdist into python/dist/. It writes the single-file
// server bundle, copies it into the Python package with the files it reads at run time (the same shape as this
// package: package.json, dist/, fixtures/, inspector/) and the licence, keeps pyproject's version equal to
// package.json's, and runs hatchling from a build venv (python/.venv-build, made once from the machine's Python
// packages). The sdist carries the server too, so a wheel built from it is the same package.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PYTHON = join(ROOT, 'python');
const SERVER = join(PYTHON, 'src', 'pytest_labelmock', 'server');
const run = (command, args, cwd = ROOT) => execFileSync(command, args, { cwd, stdio: 'inherit' });

run(process.execPath, [join(ROOT, 'scripts', 'copy-docs-assets.mjs')]);
run(process.execPath, [join(ROOT, 'scripts', 'bundle.mjs')]);

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
rmSync(SERVER, { recursive: true, force: true });
mkdirSync(join(SERVER, 'dist'), { recursive: true });
// Only what the bundle reads: its version and name (no dependencies: the bundle has them inside).
writeFileSync(join(SERVER, 'package.json'), `${JSON.stringify({ name: 'labelmock', version, private: true })}\n`);
cpSync(join(ROOT, 'dist', 'labelmock.mjs'), join(SERVER, 'dist', 'labelmock.mjs'));
cpSync(join(ROOT, 'dist', 'docs-assets'), join(SERVER, 'dist', 'docs-assets'), { recursive: true });
for (const folder of ['fixtures', 'inspector']) cpSync(join(ROOT, folder), join(SERVER, folder), { recursive: true });
cpSync(join(ROOT, 'LICENSE'), join(PYTHON, 'LICENSE'));

const pyproject = join(PYTHON, 'pyproject.toml');
const text = readFileSync(pyproject, 'utf8');
const synced = text.replace(/^version = ".*"$/m, `version = "${version}"`);
if (synced !== text) writeFileSync(pyproject, synced);

const venv = join(PYTHON, '.venv-build');
const python = join(venv, 'bin', 'python');
if (!existsSync(python)) run('python3', ['-m', 'venv', venv]);
try {
  execFileSync(python, ['-c', 'import hatchling'], { stdio: 'ignore' });
} catch {
  // From the machine's own package folders (pip's configuration); no retries against an index it cannot reach.
  run(python, ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '5', 'hatchling']);
}
const out = join(PYTHON, 'dist');
rmSync(out, { recursive: true, force: true });
run(python, ['-m', 'hatchling', 'build', '--target', 'wheel', '--target', 'sdist', '--directory', out], PYTHON);
console.log(
  `python:wheel: ${readdirSync(out)
    .map((name) => join('python', 'dist', name))
    .join(', ')}`,
);
