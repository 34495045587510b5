import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { OTHER_KINDS_ONLY } from '../../contracts/kit/report.js';

/** One in-process contract run in the scratch copy, read from vitest's JSON report. */

interface FailedTest {
  /** The test title: the contract's name followed by its tags, e.g. `GET /v1/tasks ... [interface]`. */
  title: string;
  tags: string[];
  /** False when only rules of another kind than the contract's broke (labelmock's wording in an interface contract). */
  ownRuleBroken: boolean;
}

export interface RunResult {
  /** Tests in the report (contracts plus the catalog check). */
  total: number;
  failed: FailedTest[];
  /** Set when the run gave no usable report (a crash, a timeout, a file that failed to load). */
  problem?: string;
  seconds: number;
}

interface JsonReport {
  testResults: {
    status: string;
    message?: string;
    assertionResults: { title: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** A mutant that makes contracts wait out their timeouts can take a few minutes; past this it is stopped. */
const RUN_LIMIT_MS = 240_000;

/** The tags vitest's title carries in brackets: `name [interface,control]`. */
const tagsOf = (title: string): string[] => /\[([a-z,]+)\]$/.exec(title)?.[1]?.split(',') ?? [];

export async function runContracts(dir: string): Promise<RunResult> {
  const report = join(dir, '.mutant-report.json');
  rmSync(report, { force: true });
  const started = Date.now();
  // The repo's defaults (LABELMOCK_SELF_CHECK=strict from vitest.config.ts) stay as they are; the
  // cache is off so nothing is written into the shared node_modules/.vite through the link.
  const args = ['vitest', 'run', 'contracts/in-process.test.ts', '--reporter=json', `--outputFile=${report}`];
  const code = await runDetached('npx', [...args, '--cache=false'], dir);
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  if (code === 'timeout') return { total: 0, failed: [], problem: `stopped after ${RUN_LIMIT_MS / 1000} s`, seconds };
  if (!existsSync(report)) return { total: 0, failed: [], problem: `vitest exited ${code} without a report`, seconds };
  const json = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
  const tests = json.testResults.flatMap((file) => file.assertionResults);
  // A file that failed to load (a patch that broke the import graph) has no tests: not a detection.
  const broken = json.testResults.find((file) => file.status === 'failed' && file.assertionResults.length === 0);
  const failed = tests
    .filter((test) => test.status === 'failed')
    .map((test) => ({
      title: test.title,
      tags: tagsOf(test.title),
      // contracts/in-process.test.ts says so at the head of its error.
      ownRuleBroken: !(test.failureMessages?.[0] ?? '').split('\n')[0]?.includes(`(${OTHER_KINDS_ONLY})`),
    }));
  const problem = broken ? `test file failed to load: ${broken.message ?? ''}`.slice(0, 300) : undefined;
  return { total: tests.length, failed, seconds, ...(problem && { problem }) };
}

/** Its own process group, so a timeout ends vitest and its workers, and nothing else. */
function runDetached(command: string, args: string[], cwd: string): Promise<number | 'timeout'> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      resolve('timeout');
    }, RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0 && code !== 1) process.stderr.write(stderr);
      resolve(code ?? -1);
    });
  });
}
