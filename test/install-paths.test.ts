import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The two installs besides the packed tarball (test/package.test.ts), from a fresh clone of this
 * repository's committed HEAD, as a user would run them: a checkout folder with no node_modules, and
 * a git URL. Each must leave a working bin and library in an empty app.
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

/** A fresh clone: the committed files only, no node_modules, no dist. */
async function freshClone(): Promise<string> {
  const dir = join(tempDir('labelmock-clone-'), 'labelmock');
  await run('git', ['clone', '--quiet', ROOT, dir]);
  return dir;
}

/** An empty app that installs `spec`; answers its folder once the bin and the library work there. */
async function installInApp(spec: string): Promise<{ app: string; version: string; exports: string }> {
  const app = tempDir('labelmock-app-');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', spec], { cwd: app });
  const version = (await run('npx', ['--no-install', 'labelmock', '--version'], { cwd: app })).stdout.trim();
  const script = "import('labelmock').then((m) => console.log(typeof m.createApp))";
  const exports = (await run(process.execPath, ['-e', script], { cwd: app })).stdout.trim();
  return { app, version, exports };
}

describe('installs from source', () => {
  it('npm i -D <a fresh checkout folder> works: its prepare installs the build tools, then builds', async () => {
    const { version, exports } = await installInApp(await freshClone());
    expect(version).toBe(VERSION);
    expect(exports).toBe('function');
  }, 300_000);

  it('npm i -D git+file://<repository> works: npm installs its dev dependencies, its prepare builds', async () => {
    const clone = await freshClone();
    const { version, exports } = await installInApp(`git+file://${clone}`);
    expect(version).toBe(VERSION);
    expect(exports).toBe('function');
  }, 300_000);
});
