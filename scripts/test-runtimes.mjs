#!/usr/bin/env node
/**
 * The tests that meet the runtime most (the packed package and its bins, the official clients, the
 * HTTP server and the CLI) on each supported Node line besides the machine's own. Each Node comes
 * from the npm package `node` (npx caches it); everything the tests spawn runs on it too (its folder
 * leads PATH, so `npx`, `npm` and `node` in child processes are that Node).
 *
 *   npm run test:runtimes                        Node 22 and 24
 *   npm run test:runtimes -- --node 24           one line
 *   npm run test:runtimes -- --json-dir DIR      also writes vitest's JSON report per line (CI sums them)
 *
 * Exit 1 when a line failed or could not start.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LINES = ['22', '24'];
const TESTS = ['test/package.test.ts', 'test/compat', 'test/server.test.ts', 'test/cli.test.ts'];

const { values } = parseArgs({ options: { node: { type: 'string', multiple: true }, 'json-dir': { type: 'string' } } });
const lines = values.node ?? LINES;
if (values['json-dir']) mkdirSync(values['json-dir'], { recursive: true });

/** The npx-run environment marks its own package list; a child npx must not inherit it. */
function cleanEnv(nodeDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, PATH: `${nodeDir}:${env.PATH ?? ''}` };
}

let failed = false;
for (const line of lines) {
  let binary;
  try {
    binary = execFileSync('npx', ['-y', '-p', `node@${line}`, '--', 'node', '-p', 'process.execPath'], {
      encoding: 'utf8',
      env: cleanEnv(dirname(process.execPath)),
    }).trim();
  } catch (err) {
    console.error(`test:runtimes: could not get Node ${line} from the npm package "node": ${err.message}`);
    failed = true;
    continue;
  }
  const version = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`test:runtimes: Node ${version} (${binary})`);
  const report = values['json-dir']
    ? [`--reporter=json`, `--outputFile=${join(values['json-dir'], `node${line}.json`)}`]
    : [];
  const run = spawnSync(
    binary,
    [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...TESTS, '--reporter=default', ...report],
    { cwd: ROOT, stdio: 'inherit', env: cleanEnv(dirname(binary)) },
  );
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
