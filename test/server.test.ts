import { describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';
import { basic } from './helpers.js';

/** Starts the real CLI and reads the banner it prints. */
async function startServer(args: string[]): Promise<{ banner: string; stop: () => void }> {
  const cli = startCli(args);
  await cli.base;
  return { banner: cli.out(), stop: () => cli.child.kill('SIGTERM') };
}

describe('npm start (src/cli.ts)', () => {
  it('serves on 127.0.0.1, prints the base URL and keys that work', async () => {
    const { banner, stop } = await startServer(['--port', '0', '--completion', 'immediate']);
    try {
      const base = /base URL: (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(banner)?.[1];
      const testKey = /test key: (\S+)/.exec(banner)?.[1];
      const liveKey = /live key: (\S+)/.exec(banner)?.[1];
      expect(base).toBeTruthy();
      expect(banner).toContain('completion (test keys): immediate');
      for (const key of [testKey, liveKey]) {
        const res = await fetch(`${base}/tasks`, {
          headers: { authorization: basic(key ?? '') },
        });
        expect(res.status).toBe(200);
      }
    } finally {
      stop();
    }
  });

  it('exits with a clear message on a bad flag', async () => {
    await expect(startServer(['--completion', 'sometimes'])).rejects.toThrow(
      /exited with 2: labelmock: --completion must be/,
    );
  });
});
