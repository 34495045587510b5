import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cjsRequire, freshKey, type Mock, PRELOAD, startMock } from './node-sdk-harness.js';

/**
 * The Node SDK's own test file (`scaleapi` 2.3.2, test/test_client.js), unchanged, run by mocha in a
 * child process against a labelmock server whose test keys complete tasks at once, as the real
 * test mode does (its tests expect a fresh task to be completed when fetched and not cancelable).
 */

const MOCHA = cjsRequire.resolve('mocha/bin/mocha.js');
const SDK_TESTS = cjsRequire.resolve('scaleapi/test/test_client.js');

interface MochaTest {
  fullTitle: string;
  err: { message?: string };
}
interface MochaReport {
  stats: { tests: number; passes: number; failures: number; pending: number };
  passes: MochaTest[];
  failures: MochaTest[];
  pending: MochaTest[];
}

let mock: Mock;
let markExited: () => void;
const mochaExited = new Promise<void>((resolve) => (markExited = resolve));

/**
 * Why hold one answer: 'test tasks invalid' calls mocha's done() twice, once for the SDK's own
 * "Illegal parameter" error and again when the server's answer to `GET /v1/tasks?bogus=0` comes
 * back. Against the real service, mocha 3 (which exits after the run by default) was gone before
 * that answer crossed the network. Here the answer comes from localhost within a millisecond or two
 * and races mocha's shutdown: if it wins, mocha reports "done() called multiple times" (or, without
 * --exit, throws it after the run). Holding that one answer until mocha has exited restores the
 * real timing, deterministically. node-sdk.test.ts checks that answer itself (a 400 naming `bogus`).
 */
/** Raises the SDK file's 4 s per-test timeout for a loaded machine (test/compat/mocha-timeout-floor.cjs). */
const TIMEOUT_FLOOR = cjsRequire.resolve('./mocha-timeout-floor.cjs');

const holdLateAnswer = async (req: Request) => {
  if (new URL(req.url).searchParams.has('bogus')) await Promise.race([mochaExited, sleep(30_000)]);
};

beforeAll(async () => {
  mock = await startMock({ completion: { mode: 'immediate', delay_ms: 0 } }, holdLateAnswer);
});
afterAll(() => mock.close());

function runMocha(key: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // --exit: the SDK's own test needs mocha to quit once the run ends (see holdLateAnswer); the
  // SDK's keep-alive sockets do not hold the process open by themselves.
  const requires = ['--require', PRELOAD, '--require', TIMEOUT_FLOOR];
  const args = [MOCHA, '--exit', '--no-config', '--reporter', 'json', ...requires, SDK_TESTS];
  const env = {
    ...process.env,
    LABELMOCK_URL: mock.origin,
    SCALE_TEST_API_KEY: key,
    SCALE_API_TEST_KEY: key,
    NO_PROXY: '127.0.0.1',
  };
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000); // a hung mocha fails the test, not the suite
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      markExited();
      resolve({ code, stdout, stderr });
    }),
  );
}

it('scaleapi test/test_client.js: every one of its tests passes unchanged and mocha exits 0', {
  timeout: 90_000,
}, async () => {
  const { code, stdout, stderr } = await runMocha(freshKey('nodesdk_own'));
  let report: MochaReport;
  try {
    report = JSON.parse(stdout) as MochaReport;
  } catch {
    throw new Error(`mocha printed no JSON report (exit ${code}):\n${stdout}\n${stderr}`);
  }
  const failed = report.failures.map((t) => `${t.fullTitle}: ${t.err.message}`);
  expect(failed).toEqual([]);
  expect(report.pending.map((t) => t.fullTitle)).toEqual([]);
  // Every it() in the file ran (none skipped by a crash), and each passed.
  const declared = readFileSync(SDK_TESTS, 'utf8').match(/^\s*it\(/gm)?.length ?? 0;
  expect(declared).toBe(28);
  expect(report.stats).toMatchObject({ tests: declared, passes: declared, failures: 0, pending: 0 });
  expect(report.passes.map((t) => t.fullTitle)).toContain('task methods test tasks invalid');
  expect(code, stderr).toBe(0);
});
