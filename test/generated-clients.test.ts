import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

/**
 * The committed documents as people use them: through code generators. Each generator lives in
 * generated-clients/ with its own package.json and lockfile (never the package's dependencies),
 * installed here on first run. A client is generated from openapi.yaml and openapi-control.yaml,
 * compiled strict with a probe whose wrong calls must fail to compile, then run against a live server.
 */

const run = promisify(execFile);
const HOME = new URL('../generated-clients/', import.meta.url).pathname;
const bin = (name: string) => join(HOME, 'node_modules', '.bin', name);
const ROOT = new URL('..', import.meta.url).pathname;

beforeAll(async () => {
  // `npm ci` from its own lockfile, once per checkout (CI's fresh clone installs it here).
  if (!existsSync(join(HOME, 'node_modules', '.package-lock.json'))) {
    await run('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: HOME });
  }
}, 300_000);

describe('openapi-typescript + openapi-fetch', () => {
  const out = join(HOME, 'openapi-typescript', 'generated');
  const app = createApp();
  let server: ReturnType<typeof serve> | undefined;
  afterAll(() => {
    server?.close();
    app.dispose();
  });

  it('generates types from openapi.yaml and openapi-control.yaml that compile strict with the probe', async () => {
    mkdirSync(out, { recursive: true });
    for (const [document, file] of [
      ['openapi.yaml', 'api.ts'],
      ['openapi-control.yaml', 'control.ts'],
    ] as const) {
      await run(bin('openapi-typescript'), [join(ROOT, document), '-o', join(out, file)], { cwd: HOME });
    }
    // Every @ts-expect-error in the probe must meet an error (tsc reports an unused one), every other line none.
    const compiled = await run(bin('tsc'), ['-p', join(HOME, 'tsconfig.json')], { cwd: HOME }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('');
  }, 120_000);

  it('runs the scenario against a live server: create, list two statuses to the end, complete, read', async () => {
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    const { scenario } = await import('../generated-clients/openapi-typescript/scenario.js');
    const outcome = await scenario(`http://127.0.0.1:${port}`, 'test_generated');
    expect(outcome.createdType).toBe('imageannotation');
    expect(outcome.listed).toHaveLength(3);
    expect(outcome.pages).toBe(2);
    expect(outcome.completedLabels.length).toBeGreaterThan(0);
    expect(outcome.errorStatus).toBe(400);
    expect(outcome.errorMessage).toMatch(/attachment/);
    expect(outcome.flagged).toBe(true);
  });
});
