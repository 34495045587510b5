import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The examples a user copies run here as they are: examples/python-pytest with Python's pytest and
 * requests (CI installs Debian's python3-pytest and python3-requests), against the built bin.
 */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;

describe('examples', () => {
  it('examples/python-pytest: its conftest starts labelmock, and its tests pass against it', async () => {
    const { stdout } = await run(
      'python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'examples/python-pytest'],
      {
        cwd: ROOT,
        env: { ...process.env, LABELMOCK_BIN: `${process.execPath} ${ROOT}dist/cli.js` },
      },
    );
    expect(stdout).toMatch(/\b3 passed\b/);
    expect(stdout).not.toMatch(/failed|error/);
  }, 120_000);
});
