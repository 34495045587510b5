import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { serve } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { sendHalfAndLeave } from './half-sent.js';
import { basic } from './helpers.js';

/**
 * JSON bodies read straight from the Node request over a real socket: chunked ones counted against
 * the limit as they arrive, sized ones read once by the route; both kept for what reads them after
 * the route (the strict self-check, the request journal), and neither through a web stream.
 */

const KEY = 'test_socket';
const AUTH = basic(KEY);
const app = createApp({ config: { maxBodyBytes: 1000, selfCheck: 'strict' } });
let server: Server;
let port: number;

beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  port = (server.address() as AddressInfo).port;
});
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  server.closeAllConnections();
  server.close();
  app.dispose();
});

interface Sent {
  chunks: string[];
  /** With a Content-Length when given, else chunked. */
  declared?: number;
  type?: string;
}

function post(path: string, { chunks, declared, type = 'application/json' }: Sent) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: AUTH, 'content-type': type };
    if (declared !== undefined) headers['content-length'] = declared;
    // A connection of its own: a body refused unread (a declared length never sent) leaves its connection
    // unusable, and a pooled one would carry that into the next test.
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

async function journaled(): Promise<any[]> {
  const res = await fetch(`http://127.0.0.1:${port}/_mock/requests`, { headers: { authorization: AUTH } });
  return (await res.json()).requests;
}

const TASK = { attachment: 'https://example.com/a.jpg', geometries: { box: { objects_to_annotate: ['car'] } } };
const TEXT = JSON.stringify(TASK);

describe('JSON bodies over a socket', () => {
  it('POST /v1/task/imageannotation chunked or sized is created, self-checked, journaled with its body', async () => {
    const chunked = await post('/v1/task/imageannotation', { chunks: [TEXT.slice(0, 7), TEXT.slice(7)] });
    expect(chunked.status).toBe(200);
    const sized = await post('/v1/task/imageannotation', { chunks: [TEXT], declared: Buffer.byteLength(TEXT) });
    expect(sized.status).toBe(200);
    const [second, first] = await journaled();
    expect(first).toMatchObject({ path: '/v1/task/imageannotation', status: 200, body: TASK });
    expect(second).toMatchObject({ path: '/v1/task/imageannotation', status: 200, body: TASK });
  });

  it('POST /v1/task/imageannotation chunked past the limit is the 413; the server answers on', async () => {
    const big = JSON.stringify({ ...TASK, instruction: 'x'.repeat(2000) });
    const res = await post('/v1/task/imageannotation', { chunks: [big.slice(0, 600), big.slice(600)] });
    expect(res).toEqual({
      status: 413,
      body: { status_code: 413, error: 'Request body is larger than the limit of 1000 bytes' },
    });
    expect((await post('/v1/task/imageannotation', { chunks: [TEXT] })).status).toBe(200);
  });

  it('POST /v1/task/imageannotation declaring a length over the limit is a 413 before the body is read', async () => {
    const res = await post('/v1/task/imageannotation', { chunks: ['{}'], declared: 5000 });
    expect(res).toEqual({
      status: 413,
      body: { status_code: 413, error: 'Request body is larger than the limit of 1000 bytes' },
    });
  });

  it('POST /v1/task/imageannotation chunked: malformed JSON is a 400, a form body is read as one', async () => {
    const malformed = await post('/v1/task/imageannotation', { chunks: ['{"attachment": ', '"x"'] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatch(/^Request body is not valid JSON: /);
    const form = await post('/v1/task/imageannotation', {
      chunks: ['attachment=', 'x'],
      type: 'application/x-www-form-urlencoded',
    });
    // Read whole, then as a form: its one field is checked as the JSON one would be.
    expect(form.status).toBe(400);
    expect(form.body.error).toMatch(/"attachment" must be an absolute URL/);
  });

  it('POST /v1/task/imageannotation chunked or sized, and an upload, read no web stream', async () => {
    const toWeb = vi.spyOn(Readable, 'toWeb');
    expect((await post('/v1/task/imageannotation', { chunks: [TEXT] })).status).toBe(200);
    expect((await post('/v1/task/imageannotation', { chunks: [TEXT], declared: Buffer.byteLength(TEXT) })).status).toBe(
      200,
    );
    const form = '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello\r\n--b--\r\n';
    const uploaded = await post('/v1/files/upload', { chunks: [form], type: 'multipart/form-data; boundary=b' });
    expect(uploaded).toMatchObject({ status: 200, body: { size: 5, display_name: 'a.txt' } });
    expect(toWeb).not.toHaveBeenCalled();
  });

  it('POST /v1/task/imageannotation chunked whose client leaves mid-body is no internal error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    await sendHalfAndLeave(
      server,
      `POST /v1/task/imageannotation HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n` +
        'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\ne\r\n{"attachment":\r\n',
    );
    // It keeps serving; by this answer's time the reset has been read and any error logged.
    expect((await post('/v1/task/imageannotation', { chunks: [TEXT] })).status).toBe(200);
    expect(logged).not.toHaveBeenCalled();
  });
});
