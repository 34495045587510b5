import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterEach, expect, it, vi } from 'vitest';
import { createApp, type MockApp } from '../src/app.js';
import { sendHalfAndLeave } from './half-sent.js';
import { basic } from './helpers.js';

const AUTH = basic('test_acme');

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

/** Sends `requests` on one connection at once (HTTP/1.1 pipelining), then waits until each has reached the app. */
async function pipelineAndLeave(server: Server, requests: string[], arrived: () => boolean): Promise<void> {
  const { connect } = await import('node:net');
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(requests.join(''));
  await expect.poll(arrived).toBe(true);
  socket.destroy();
}

/** A served app with one fault rule, for `use`; closed after it. */
async function withServedRule(rule: object, use: (app: MockApp, server: Server, base: string) => Promise<void>) {
  const app = createApp();
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const added = await fetch(`${base}/_mock/faults`, {
      method: 'POST',
      headers: JSON_AUTH,
      body: JSON.stringify(rule),
    });
    expect(added.status).toBe(200);
    await use(app, server, base);
  } finally {
    server.closeAllConnections();
    server.close();
    app.dispose();
  }
}

const JSON_AUTH = { authorization: AUTH, 'content-type': 'application/json' };

it('pipelined delayed creations whose client left change nothing and give back their held slots', async () => {
  const rule = { method: 'POST', path: '/v1/task/imageannotation', delay_ms: 60_000 };
  await withServedRule(rule, async (app, server, base) => {
    const body = JSON.stringify({
      attachment: 'https://example.com/a.jpg',
      geometries: { box: { objects_to_annotate: ['car'] } },
    });
    const creation =
      `POST /v1/task/imageannotation HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const held = app.services.events.held;
    // Three on one connection: the second and third wait behind the first, their answers queued in Node.
    await pipelineAndLeave(server, [creation, creation, creation], () => held.count === 3);
    await expect.poll(() => held.count).toBe(0);
    const list = await (await fetch(`${base}/v1/tasks`, { headers: JSON_AUTH })).json();
    expect(list.docs).toEqual([]);
  });
});

it('an event stream and hanging requests pipelined behind it free their slots once the client left', async () => {
  await withServedRule({ method: 'GET', path: '/v1/tasks', fault: 'hang' }, async (app, server) => {
    const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n\r\n`;
    const held = app.services.events.held;
    await pipelineAndLeave(server, [get('/_mock/events'), get('/v1/tasks'), get('/v1/tasks')], () => held.count === 3);
    await expect.poll(() => held.count).toBe(0);
  });
});
