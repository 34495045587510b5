import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { basic, imageRequest } from './helpers.js';
import { startShutdownServer } from './shutdown-server.js';

const AUTH = basic('test_acme');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const startServer = (timeoutMs: number) => startShutdownServer(timeoutMs, cleanups);

/** A raw connection: what it receives, and whether the server closed it. */
async function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const state = {
    received: '',
    closed: false,
    closedAt: new Promise<void>((resolve) => socket.once('close', () => resolve())),
  };
  socket.on('data', (chunk) => (state.received += chunk));
  socket.on('error', () => {});
  socket.once('close', () => (state.closed = true));
  cleanups.push(() => socket.destroy());
  return { socket, state };
}

function postHead(body: string) {
  return (
    `POST /v1/task/imageannotation HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n` +
    `Content-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`
  );
}

describe('graceful shutdown', () => {
  it('POST /v1/task/imageannotation in flight at shutdown still gets its 200, then the connection closes', async () => {
    const { server, port, shutdown } = await startServer(10_000);
    const body = JSON.stringify(imageRequest());
    const { socket, state } = await rawClient(port);
    const inFlight = once(server, 'request');
    socket.write(postHead(body) + body.slice(0, 20));
    await inFlight;
    const stopped = shutdown();
    socket.write(body.slice(20));
    await state.closedAt;
    const [head = '', answer = ''] = state.received.split('\r\n\r\n'); // empty when missing: the checks fail
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer)).toMatchObject({ status: 'pending', type: 'imageannotation' });
    expect(await stopped).toEqual({ forced: false });
  });

  it('GET /v1/tasks with half-sent headers is closed at once at shutdown, not waiting for the deadline', async () => {
    const { port, shutdown } = await startServer(600_000);
    const { socket, state } = await rawClient(port);
    socket.write(`GET /v1/tasks HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n`);
    const idle = await rawClient(port);
    idle.socket.write(`GET /v1/tasks HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${AUTH}\r\n\r\n`);
    await new Promise<void>((resolve) => idle.socket.once('data', () => resolve()));
    expect(idle.state.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(await shutdown()).toEqual({ forced: false });
    await Promise.all([state.closedAt, idle.state.closedAt]);
    expect([state.closed, idle.state.closed]).toEqual([true, true]);
    expect(state.received).toBe('');
  });

  it('POST /v1/task/imageannotation whose body never completes is cut off at the deadline', async () => {
    const { server, port, shutdown } = await startServer(100);
    const body = JSON.stringify(imageRequest());
    const { socket, state } = await rawClient(port);
    const inFlight = once(server, 'request');
    socket.write(postHead(body) + body.slice(0, 20));
    await inFlight;
    expect(await shutdown()).toEqual({ forced: true });
    await state.closedAt;
    expect(state.closed).toBe(true);
    expect(state.received).toBe('');
  });

  it('GET /v1/tasks after shutdown began is refused: the port no longer accepts connections', async () => {
    const { port, shutdown } = await startServer(1000);
    const stopped = shutdown();
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve('connected'));
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
    expect(await stopped).toEqual({ forced: false });
  });
});
