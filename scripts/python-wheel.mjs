// `npm run python:wheel`: builds pytest-labelmock's wheel into python/dist/. It writes the single-file server
// bundle, copies it into the Python package with the files it reads at run time (the same shape as this
// package: package.json, dist/, fixtures/, inspector/), keeps pyproject's version equal to package.json's, and
// runs hatchling from a build venv (python/.venv-build, made once from the machine's Python packages).
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
run(python, ['-m', 'hatchling', 'build', '--target', 'wheel', '--directory', out], PYTHON);
const wheel = readdirSync(out).find((name) => name.endsWith('.whl'));
console.log(`python:wheel: ${join('python', 'dist', wheel ?? '(none)')}`);
