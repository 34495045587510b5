import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * pytest-labelmock as a Python user gets it: `npm run python:wheel` builds the wheel and the sdist, both pass
 * `twine check` (Debian's twine), a wheel is built again from the sdist (as pip does where no wheel fits), a
 * fresh venv installs that one (with pytest-xdist, from the machine's own Python packages), and the plugin's own
 * tests run there with two workers (python/tests: the fixtures, options, one server per worker, a missing Node,
 * the client's wiring, a long session).
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'labelmock-wheel-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('pytest-labelmock', () => {
  it("builds a wheel and an sdist that pass twine check; the sdist's wheel installs, and its tests pass", async () => {
    await run(process.execPath, ['scripts/python-wheel.mjs'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    const dist = join(ROOT, 'python', 'dist');
    const built = readdirSync(dist).sort();
    expect(built).toEqual([
      expect.stringMatching(/^pytest_labelmock-\d+\.\d+\.\d+-py3-none-any\.whl$/),
      expect.stringMatching(/^pytest_labelmock-\d+\.\d+\.\d+\.tar\.gz$/),
    ]);
    const checked = await run('twine', ['check', '--strict', ...built.map((name) => join(dist, name))]);
    expect(checked.stdout.match(/PASSED/g)).toHaveLength(2);
    // The wheel pip would build from the sdist, with the build venv python:wheel made (hatchling in it).
    const fromSdist = join(scratch, 'from-sdist');
    const build = join(ROOT, 'python', '.venv-build', 'bin', 'python');
    const sdist = join(dist, built[1] ?? '');
    await run(build, ['-m', 'pip', 'wheel', '--quiet', '--no-deps', '--no-build-isolation', '-w', fromSdist, sdist]);
    const [wheel] = readdirSync(fromSdist);
    const readMetadata =
      'import sys, zipfile; w = zipfile.ZipFile(sys.argv[1]); ' +
      "print(w.read(next(n for n in w.namelist() if n.endswith('.dist-info/METADATA'))).decode())";
    const metadata = await run('python3', ['-c', readMetadata, join(fromSdist, wheel ?? '')]);
    for (const field of ['License: MIT', 'Requires-Python: >=3.9', 'Project-URL: Source, https://github.com/']) {
      expect(metadata.stdout).toContain(field);
    }
    expect(metadata.stdout).toMatch(/Classifier: Programming Language :: Python :: 3\.13\n/);
    const venv = join(scratch, 'venv');
    await run('python3', ['-m', 'venv', venv]);
    const pip = ['-m', 'pip', 'install', '--quiet', '--retries', '0', '--timeout', '5'];
    await run(join(venv, 'bin', 'python'), [...pip, join(fromSdist, wheel ?? ''), 'pytest-xdist'], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const { stdout } = await run(
      join(venv, 'bin', 'python'),
      ['-m', 'pytest', 'tests', '-q', '-n', '2', '-p', 'no:cacheprovider', '--rootdir', '.'],
      { cwd: join(ROOT, 'python'), maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout).toMatch(/\n23 passed in [\d.]+s\n$/);
  });
});
