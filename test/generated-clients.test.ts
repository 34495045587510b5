import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATORS_HOME, generatorBin } from '../scripts/generators.js';
import { createApp } from '../src/app.js';

/**
 * The committed documents as people use them: through code generators. Each generator lives in
 * generated-clients/ with its own package.json and lockfile (never the package's dependencies),
 * installed here on first run. A client is generated from openapi.yaml and openapi-control.yaml,
 * compiled strict with a probe whose wrong calls must fail to compile, then run against a live server.
 */

const run = promisify(execFile);
const HOME = GENERATORS_HOME;
const ROOT = new URL('..', import.meta.url).pathname;

const bin = (name: string) => generatorBin(name);

beforeAll(() => {
  // `npm ci` from the folder's own lockfile, once per checkout (npm run openapi:check may have done it already).
  generatorBin('tsc');
}, 300_000);

/**
 * Each generator's folder and how it turns a committed document into generated code: `name` is `api`
 * (openapi.yaml) or `control` (openapi-control.yaml), written under `<folder>/generated/`.
 */
const GENERATORS = {
  'openapi-typescript': (document: string, name: string) => [
    bin('openapi-typescript'),
    [document, '-o', join(HOME, 'openapi-typescript', 'generated', `${name}.ts`)],
  ],
  // typed-openapi joins -o to its working directory even when absolute: given relative to it.
  'typed-openapi': (document: string, name: string) => [
    bin('typed-openapi'),
    [document, '-o', join('typed-openapi', 'generated', `${name}.ts`)],
  ],
  // @hey-api/openapi-ts writes a folder: its fetch client, the SDK functions and the types.
  'hey-api': (document: string, name: string) => [
    bin('openapi-ts'),
    ['-i', document, '-o', join(HOME, 'hey-api', 'generated', name)],
  ],
  // orval takes its custom fetch from a config file (orval/orval.config.mjs), which names both documents.
  orval: (_document: string, name: string) => [bin('orval'), ['--config', 'orval/orval.config.mjs', '--project', name]],
  'zod-client': (document: string, name: string) => [
    bin('openapi-zod-client'),
    [document, '-o', join(HOME, 'zod-client', 'generated', `${name}.ts`)],
  ],
} as const satisfies Record<string, (document: string, name: string) => [string, string[]]>;

/**
 * A generator's scenario, imported once its client is generated (the first test of its block). By a
 * computed URL: the package's own type check must not follow it into generated-clients/, whose
 * dependencies and generated files only this test puts there.
 */
async function scenarioOf(generator: string) {
  const url = pathToFileURL(join(HOME, generator, 'scenario.ts')).href;
  return (await import(/* @vite-ignore */ url)) as {
    scenario: (base: string, key: string) => Promise<{ listed: string[] } & Record<string, unknown>>;
  };
}

const app = createApp();
let base = '';
let server: ReturnType<typeof serve> | undefined;
afterAll(() => {
  server?.close();
  app.dispose();
});

/** A live server shared by the scenarios (each uses its own key, so its own tenant). */
async function liveServer(): Promise<string> {
  if (!base) {
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    base = `http://127.0.0.1:${port}`;
  }
  return base;
}

describe.each(Object.keys(GENERATORS) as (keyof typeof GENERATORS)[])('%s', (generator) => {
  it('generates from openapi.yaml and openapi-control.yaml; the probe compiles, its wrong calls do not', async () => {
    mkdirSync(join(HOME, generator, 'generated'), { recursive: true });
    for (const [document, name] of [
      ['openapi.yaml', 'api'],
      ['openapi-control.yaml', 'control'],
    ] as const) {
      const [command, args] = GENERATORS[generator](join(ROOT, document), name);
      await run(command, args, { cwd: HOME });
    }
    // Every @ts-expect-error in a probe must meet an error (tsc reports an unused one), every other line none.
    const compiled = await run(bin('tsc'), ['-p', join(HOME, generator, 'tsconfig.json')], { cwd: HOME }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(compiled).toBe('');
  }, 120_000);

  it('runs the scenario against a live server: create, list two statuses to the end, complete, read', async () => {
    const { scenario } = await scenarioOf(generator);
    const outcome = await scenario(await liveServer(), `test_${generator.replace(/-/g, '_')}`);
    expect(outcome).toEqual({
      createdType: 'imageannotation',
      listed: expect.arrayContaining([expect.any(String)]),
      pages: 2,
      completedLabels: expect.arrayContaining([expect.any(String)]),
      attachment: 'https://example.com/1.jpg',
      errorStatus: 400,
      errorMessage: expect.stringMatching(/geometries/),
      flagged: true,
    });
    expect(outcome.listed).toHaveLength(3);
  });
});

describe('Spectral', () => {
  it('finds nothing in the three committed documents with its oas ruleset, hints included', async () => {
    const documents = ['openapi.yaml', 'openapi-v2.yaml', 'openapi-control.yaml'].map((name) => join(ROOT, name));
    const args = ['lint', '--ruleset', '.spectral.yaml', '--fail-severity', 'hint', '--format', 'json', '--quiet'];
    // Exit 1 with findings: their JSON is on stdout either way.
    const { stdout } = await run(bin('spectral'), [...args, ...documents], { cwd: HOME }).catch(
      (error: { stdout: string }) => error,
    );
    expect(JSON.parse(stdout)).toEqual([]);
  }, 120_000);
});
