import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, expect, it, vi } from 'vitest';
import { createApp } from '../src/app.js';
import { sendHalfAndLeave } from './half-sent.js';

const AUTH = `Basic ${Buffer.from('test_acme:').toString('base64')}`;

afterEach(() => vi.restoreAllMocks());

it('POST /v1/task/imageannotation whose client leaves mid-body is not logged as an internal error', async () => {
  const app = createApp();
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await sendHalfAndLeave(
      server,
      `POST /v1/task/imageannotation HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"attachment":`,
    );
    // It keeps serving; by this answer's time the reset has been read and any error logged.
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/tasks`, {
      headers: { authorization: AUTH },
    });
    expect(res.status).toBe(200);
    expect(logged).not.toHaveBeenCalled();
  } finally {
    server.closeAllConnections();
    server.close();
    app.dispose();
  }
});
