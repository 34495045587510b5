import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { Spool } from '../src/http/spool.js';
import { basic } from './helpers.js';

/**
 * An upload whose consumer stalls holds the client back: the server stops reading the socket
 * instead of taking the body in ahead of the consumer. Judged by the bytes the server read from the
 * socket while the spool (the consumer) is held, not by time or memory, so it does not depend on the
 * machine's speed: reading without backpressure takes in all 40 MB, reading with it a few chunks.
 */

const UPLOAD_BYTES = 40 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 7);
const BOUNDARY = 'labelmock-backpressure';
const HEAD = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
const TAIL = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
/** Room for the pipeline's own buffers (socket read, request stream, busboy, the file stream): a few chunks. */
const READ_AHEAD_MAX = 4 * 1024 * 1024;

const app = createApp();
let server: Server;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  server.on('connection', (socket) => sockets.push(socket));
});
afterAll(() => {
  vi.restoreAllMocks();
  server.closeAllConnections();
  server.close();
  app.dispose();
});

/** Sends the upload as fast as the socket takes it, with a Content-Length; resolves with the answer. */
function sendUpload(port: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: basic('test_backpressure'),
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': HEAD.length + UPLOAD_BYTES + TAIL.length,
    };
    const req = request({ host: '127.0.0.1', port, path: '/v1/files/upload', method: 'POST', headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(HEAD);
    let sent = 0;
    const more = () => {
      while (sent < UPLOAD_BYTES) {
        sent += CHUNK.length;
        if (!req.write(CHUNK)) return void req.once('drain', more);
      }
      req.end(TAIL);
    };
    more();
  });
}

/**
 * Waits until the server has either stopped reading (its socket paused, and still paused some turns
 * later) or read the whole body: whichever comes, the bytes it read then say which it was.
 */
async function settledRead(socket: Socket): Promise<number> {
  let pausedTurns = 0;
  while (pausedTurns < 5 && socket.bytesRead < UPLOAD_BYTES) {
    await sleep(20);
    pausedTurns = socket.isPaused() ? pausedTurns + 1 : 0;
  }
  return socket.bytesRead;
}

it('POST /v1/files/upload whose spool stalls stops reading the socket; it completes once resumed', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let stalled: () => void = () => {};
  const reached = new Promise<void>((resolve) => {
    stalled = resolve;
  });
  const write = Spool.prototype.write;
  vi.spyOn(Spool.prototype, 'write').mockImplementation(async function (this: Spool, chunk: Buffer) {
    stalled();
    await held;
    return write.call(this, chunk);
  });

  const answer = sendUpload((server.address() as AddressInfo).port);
  await reached;
  const socket = sockets.at(-1) as Socket;
  const read = await settledRead(socket);
  expect(read).toBeLessThan(READ_AHEAD_MAX);
  expect(socket.isPaused()).toBe(true);

  release();
  const res = await answer;
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body)).toMatchObject({ size: UPLOAD_BYTES, display_name: 'big.bin' });
});
