import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { answeredBy, clusterForFile } from './cluster.js';

/** The whole contract kit, every tag, through each router: a fleet of shards answers as one labelmock does. */

const run = promisify(execFile);
const KIT = new URL('../../dist/contracts/cli.js', import.meta.url).pathname;
const { routers } = clusterForFile();

/** Another account the router places on the shard `account` is on. */
async function sameShardAs(base: string, account: string): Promise<string> {
  const home = (await answeredBy(base, `test_${account}`)).shard;
  for (let i = 0; ; i++) {
    if ((await answeredBy(base, `test_${account}_other${i}`)).shard === home) return `${account}_other${i}`;
  }
}

describe.each(['haproxy', 'nginx'] as const)('through %s', (router) => {
  it('the contract kit passes', async () => {
    const report = join(mkdtempSync(join(tmpdir(), 'kit-')), 'report.json');
    const base = routers[router];
    // The other account on the same shard: an Idempotency-Key is one across the accounts of a process (the
    // interface's 409 for another user's key), and a shard cannot see another's (docs/scale-out.md says so).
    const other = await sameShardAs(base, `${router}_a`);
    const args = ['--base-url', base, '--api-key', `test_${router}_a`, '--other-api-key', `test_${other}`];
    const live = ['--live-api-key', `live_${router}_a`];
    const disposable = ['--disposable-key', `test_${router}_a`, `live_${router}_a`, `test_${other}`];
    const tags = ['--tags', 'interface,recorded,client,labelmock,control'];
    await run(
      process.execPath,
      [KIT, ...args, ...live, ...disposable, ...tags, '--reporter', 'json', '--output', report],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string }) => {
      // Exit 1 is a failed contract: the report below names it.
      if (!err.stdout) throw err;
    });
    const { summary, results } = JSON.parse(readFileSync(report, 'utf8')) as {
      summary: { passed: number; failed: number; total: number };
      results: { name: string; status: string; failures?: unknown[] }[];
    };
    expect(results.filter((result) => result.status !== 'passed' && result.status !== 'skipped')).toEqual([]);
    expect(summary.failed).toBe(0);
    expect(summary.passed).toBeGreaterThan(300);
  });
});
