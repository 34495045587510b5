import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { harText } from '../src/tools/record/main.js';
import { startRecorder } from '../src/tools/record/recorder.js';
import { runBin } from './cli-process.js';
import { cleanupsAfterEach, differentService, labelmockService, scenario, serveFetch } from './recording-targets.js';

/** `labelmock drift` as users run it: exit 0 without new drift, 1 with, 2 when it cannot run. */

const cleanups = cleanupsAfterEach();

async function drift(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const run = runBin(['drift', ...args]);
  const code = await run.exited;
  return { code, out: run.out(), err: run.err() };
}

/** The URL of a port nothing listens on (taken, then let go). */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'labelmock-drift-cli-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function recordedFile(dir: string, service: 'different' | 'labelmock'): Promise<string> {
  const handler = service === 'different' ? differentService(cleanups) : labelmockService(cleanups);
  const target = await serveFetch(handler, cleanups);
  const recorder = await startRecorder({ target, port: 0, host: '127.0.0.1', redact: [] });
  await scenario(recorder.url, target, 'test_recorded');
  await recorder.stop();
  const file = join(dir, `${service}.har`);
  writeFileSync(file, harText(recorder.entries));
  return file;
}

describe('labelmock drift (the bin)', () => {
  it('exits 1 on drift, writes JUnit, and exits 0 once a baseline accepts it', async () => {
    const dir = folder();
    const file = await recordedFile(dir, 'different');
    const [xml, baseline] = [join(dir, 'drift.xml'), join(dir, 'baseline.json')];
    const first = await drift([file, '--reporter', 'junit', '--output', xml, '--write-baseline', baseline]);
    expect([first.code, first.out, first.err]).toEqual([1, '', '']);
    expect(readFileSync(xml, 'utf8')).toContain('<testsuite name="labelmock drift" tests="3" failures="3">');
    expect(JSON.parse(readFileSync(baseline, 'utf8')).accepted).toHaveLength(9);
    const again = await drift([file, '--baseline', baseline]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/9 drift\(s\), 0 new\n$/);
  });

  it('replays against a running labelmock with --base-url; its own recording exits 0', async () => {
    const dir = folder();
    const file = await recordedFile(dir, 'labelmock');
    const running = await serveFetch(labelmockService(cleanups), cleanups);
    const res = await drift([file, '--base-url', running, '--reporter', 'json']);
    expect(res.code, res.out + res.err).toBe(0);
    expect(JSON.parse(res.out)).toMatchObject({ exchanges: 5, new: 0 });
  });

  it('a file that is no recording, or a server that does not answer, exits 2 with one line', async () => {
    const dir = folder();
    const bad = join(dir, 'notes.json');
    writeFileSync(bad, '{"hello": 1}');
    const unreadable = await drift([bad]);
    expect([unreadable.code, unreadable.err]).toEqual([
      2,
      'labelmock drift: neither a HAR archive (log.entries) nor a VCR cassette (interactions)\n',
    ]);
    const file = await recordedFile(dir, 'labelmock');
    const closed = await closedPort();
    const down = await drift([file, '--base-url', closed]);
    expect([down.code, down.err]).toEqual([2, `labelmock drift: cannot replay against ${closed}: ECONNREFUSED\n`]);
  });
});
