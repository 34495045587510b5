import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarSchema } from '../src/domain/har/schema.js';
import { runBin } from './cli-process.js';
import { basic } from './helpers.js';
import { cleanupsAfterEach, labelmockService, serveFetch } from './recording-targets.js';

/** `labelmock record` as users run it: the bin's subcommand, stopped by a signal. */

const cleanups = cleanupsAfterEach();

function record(args: string[]) {
  const run = runBin(['record', ...args]);
  const url = new Promise<string>((resolve, reject) => {
    run.child.stdout.on('data', () => {
      const found = /^labelmock record: (http:\/\/\S+) ->/m.exec(run.out())?.[1];
      if (found) resolve(found);
    });
    void run.exited.then((code) => reject(new Error(`exited with ${code}: ${run.out()}${run.err()}`)));
  });
  url.catch(() => {});
  return { ...run, url };
}

describe('labelmock record (the bin)', () => {
  it('records until SIGINT, then writes the HAR file and exits 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'labelmock-record-cli-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const target = await serveFetch(labelmockService(cleanups), cleanups);
    const out = join(dir, 'session.har');
    const proc = record(['--target', target, '--out', out, '--port', '0', '--redact', 'hunter2-secret']);
    const proxy = await proc.url;
    const res = await fetch(`${proxy}/v1/tasks?limit=1`, { headers: { authorization: basic('test_cli_record') } });
    expect(res.status).toBe(200);
    proc.child.kill('SIGINT');
    expect(await proc.exited).toBe(0);
    const { entries } = HarSchema.parse(JSON.parse(readFileSync(out, 'utf8'))).log;
    expect(entries.map((entry) => [entry.request.url, entry.response.status])).toEqual([
      [`${target}/v1/tasks?limit=1`, 200],
    ]);
    expect(proc.out()).toContain(`1 exchange(s) written to ${out}`);
  });

  it('a bad flag is exit 2 with one line naming it', async () => {
    const proc = record(['--target', 'ftp://example.com', '--out', 'x.har', '--redact', 'abc']);
    expect(await proc.exited).toBe(2);
    expect(proc.err()).toBe(
      'labelmock record: --target must be an http(s) URL, not "ftp://example.com"\n' +
        'labelmock record: --redact "abc" is shorter than 6\n',
    );
  });
});
