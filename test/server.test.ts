import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Starts the real CLI on a free port and reads the banner it prints. */
function startServer(args: string[]): Promise<{ banner: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: new URL('..', import.meta.url),
    env: { ...process.env, PORT: '' },
  });
  return new Promise((resolve, reject) => {
    let banner = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${banner}`)), 15_000);
    child.stdout.on('data', (chunk) => {
      banner += chunk;
      if (banner.includes('try:')) {
        clearTimeout(timer);
        resolve({ banner, stop: () => child.kill('SIGTERM') });
      }
    });
    child.stderr.on('data', (chunk) => (banner += chunk));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${banner}`)));
  });
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
          headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
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
