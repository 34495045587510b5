import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * pytest-labelmock as a Python user gets it: `npm run python:wheel` builds the wheel, a fresh venv installs it
 * (with pytest-xdist, from the machine's own Python packages), and the plugin's own tests run there with two
 * workers (python/tests: the fixtures, options, one server per worker, a missing Node, the client's wiring).
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'labelmock-wheel-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pytest-labelmock', () => {
  it('builds into a wheel that a fresh venv installs, and its tests pass with pytest -n 2', async () => {
    await run(process.execPath, ['scripts/python-wheel.mjs'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const [wheel] = readdirSync(join(ROOT, 'python', 'dist')).filter((name) => name.endsWith('.whl'));
    expect(wheel).toMatch(/^pytest_labelmock-\d+\.\d+\.\d+-py3-none-any\.whl$/);
    const venv = join(scratch, 'venv');
    await run('python3', ['-m', 'venv', venv]);
    const pip = ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '5'];
    await run(join(venv, 'bin', 'python'), [...pip, join(ROOT, 'python', 'dist', wheel ?? ''), 'pytest-xdist'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const { stdout } = await run(
      join(venv, 'bin', 'python'),
      ['-m', 'pytest', 'tests', '-q', '-n', '2', '-p', 'no:cacheprovider', '--rootdir', '.'],
      { cwd: join(ROOT, 'python'), maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout).toMatch(/\n20 passed in [\d.]+s\n$/);
  });
});
