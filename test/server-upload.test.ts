import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from './cli-process.js';
import { basic } from './helpers.js';

/**
 * An oversize upload against the real server: refused with the standard 413 while the server
 * keeps answering, without buffering the 81 MB in memory (chunked or with Content-Length).
 */

const UPLOAD_BYTES = 81_000_000;
const CHUNK = new Uint8Array(64 * 1024);
const BOUNDARY = 'labelmock-server-upload';
const HEAD = new TextEncoder().encode(
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
);
const TAIL = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
const auth = { authorization: basic('test_upload') };

let server: { base: string; pid: number; stop: () => void };

async function startServer(): Promise<typeof server> {
  const cli = startCli(['--port', '0']);
  return { base: await cli.base, pid: cli.child.pid as number, stop: () => cli.child.kill('SIGTERM') };
}

/** Linux only: the server's peak resident set since the last reset, in bytes. */
const statusFile = () => `/proc/${server.pid}/status`;
const canMeasure = () => existsSync(statusFile());
function resetPeak(): void {
  writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
}
function kb(field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(statusFile(), 'utf8'));
  return Number(match?.[1]) * 1024;
}

function chunkedBody(): ReadableStream<Uint8Array> {
  let sent = 0;
  let stage: 'head' | 'file' | 'tail' | 'done' = 'head';
  return new ReadableStream({
    pull(controller) {
      if (stage === 'head') {
        controller.enqueue(HEAD);
        stage = 'file';
      } else if (stage === 'file') {
        const size = Math.min(CHUNK.length, UPLOAD_BYTES - sent);
        controller.enqueue(CHUNK.subarray(0, size));
        sent += size;
        if (sent === UPLOAD_BYTES) stage = 'tail';
      } else if (stage === 'tail') {
        controller.enqueue(TAIL);
        stage = 'done';
      } else controller.close();
    },
  });
}

async function expectRefused(body: BodyInit, duplex: boolean) {
  const rssBefore = canMeasure() ? kb('VmRSS') : 0;
  if (canMeasure()) resetPeak();
  const init = {
    method: 'POST',
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    ...(duplex && { duplex: 'half' }),
  };
  const uploading = fetch(`${server.base}/v1/files/upload`, init as RequestInit);
  const during = await fetch(`${server.base}/v1/tasks`, { headers: auth });
  expect(during.status).toBe(200);
  const res = await uploading;
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({
    status_code: 413,
    error: 'Parameter is invalid, reason: "file" must be at most 80 MB (80000000 bytes)',
  });
  expect((await fetch(`${server.base}/v1/tasks`, { headers: auth })).status).toBe(200);
  if (canMeasure()) expect(kb('VmHWM') - rssBefore).toBeLessThan(60 * 1024 * 1024);
}

describe('POST /v1/files/upload on the real server', () => {
  beforeAll(async () => {
    server = await startServer();
    // Warm up the upload path, so the measured growth is the upload's, not first-use compilation.
    const form = new FormData();
    form.append('file', new Blob(['warm']), 'warm.txt');
    expect((await fetch(`${server.base}/v1/files/upload`, { method: 'POST', headers: auth, body: form })).status).toBe(
      200,
    );
    // And the read sent during the upload: its first answer compiles the self-check's validators.
    expect((await fetch(`${server.base}/v1/tasks`, { headers: auth })).status).toBe(200);
  });
  afterAll(() => server?.stop());

  it('POST /v1/files/upload of 81 MB chunked is a 413; the server keeps answering and holds no 81 MB', async () => {
    await expectRefused(chunkedBody(), true);
  });

  it('POST /v1/files/upload of 81 MB with Content-Length is a 413; the server answers on, holds no 81 MB', async () => {
    await expectRefused(new Blob([HEAD, new Uint8Array(UPLOAD_BYTES), TAIL]), false);
  });
});
