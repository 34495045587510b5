import type { Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';

/** JSON bodies over a real socket: chunked or with a length, and a declared length over the limit. */

const AUTH = `Basic ${Buffer.from('test_limits:').toString('base64')}`;
const app = createApp({ config: { maxBodyBytes: 1000 } });
let server: Server;
let port: number;

beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  app.dispose();
});

/** Sends `chunks` as the body: with a Content-Length when `declared` is given, else chunked. */
function post(path: string, chunks: string[], declared?: number): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: AUTH, 'content-type': 'application/json' };
    if (declared !== undefined) headers['content-length'] = declared;
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const TASK = JSON.stringify({
  attachment: 'https://example.com/a.jpg',
  geometries: { box: { objects_to_annotate: ['car'] } },
});
const TOO_LARGE = { status_code: 413, error: 'Request body is larger than the limit of 1000 bytes' };

describe('JSON body limit over HTTP', () => {
  it('POST /v1/task/imageannotation over a socket reads a chunked or sized body and creates the task', async () => {
    const chunked = await post('/v1/task/imageannotation', [TASK.slice(0, 20), TASK.slice(20)]);
    expect(chunked.status).toBe(200);
    expect(chunked.body).toMatchObject({ status: 'pending', params: { attachment: 'https://example.com/a.jpg' } });
    expect((await post('/v1/task/imageannotation', [TASK], Buffer.byteLength(TASK))).status).toBe(200);
  });

  it('POST /v1/task/imageannotation declaring a length over the limit is a 413 before the body is read', async () => {
    const res = await post('/v1/task/imageannotation', ['{}'], 5000);
    expect(res).toEqual({ status: 413, body: TOO_LARGE });
  });
});
