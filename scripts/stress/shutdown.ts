import { connect, type Socket } from 'node:net';
import { auth, fmtMs } from './http.js';
import type { Ctx } from './report.js';
import { type StartedServer, startServer } from './server.js';

const GIVE_UP_MS = 20_000;

async function open(base: string, text: string): Promise<Socket> {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  // A server out of descriptors may drop the connection instead: then there is nothing to hold.
  const connected = await new Promise<boolean>((resolve) => {
    socket.once('connect', () => resolve(true));
    socket.once('close', () => resolve(false));
  });
  if (connected) socket.write(text);
  return socket;
}

/** Sends SIGTERM and waits for the exit (given up after 20 s, then SIGKILL). */
async function timeExit(server: StartedServer): Promise<string> {
  if (server.child.exitCode !== null) {
    const reason = /\n(\w*Error[^\n]*)/.exec(server.stderrTail())?.[1] ?? '';
    return `had already exited (${server.child.exitCode}) before SIGTERM ${reason}`.trim();
  }
  const started = performance.now();
  server.child.kill('SIGTERM');
  const code = await Promise.race([
    server.exited,
    new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), GIVE_UP_MS)),
  ]);
  const ms = performance.now() - started;
  if (code !== 'hung') return `exited ${code} after ${fmtMs(ms)}`;
  server.child.kill('SIGKILL');
  return `still running after ${GIVE_UP_MS / 1000} s (killed)`;
}

const HALF_HEADERS = `GET /v1/tasks HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth('test_stress_shutdown')}\r\n`;
const HALF_BODY =
  `POST /v1/task/imageannotation HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth('test_stress_shutdown')}\r\n` +
  `Content-Type: application/json\r\nContent-Length: 500\r\n\r\n{"instr`;

/**
 * Item 7: the time from SIGTERM to exit, first on a fresh server where a client holds a request
 * with half its headers, then on the stressed server where clients also hold one with half its
 * body (a request in flight: it gets the shutdown deadline, 5 s by default).
 */
export async function shutdown(ctx: Ctx): Promise<void> {
  const fresh = await startServer(ctx.root, 1024);
  const first = [await open(fresh.base, HALF_HEADERS)];
  await new Promise((resolve) => setTimeout(resolve, 200));
  ctx.row('7', 'SIGTERM, fresh server, a half-sent header held open', await timeExit(fresh));
  const held = [await open(ctx.server.base, HALF_HEADERS), await open(ctx.server.base, HALF_BODY)];
  await new Promise((resolve) => setTimeout(resolve, 200));
  ctx.row('7', 'SIGTERM, stressed server, a half-sent header and a half-sent body', await timeExit(ctx.server));
  for (const socket of [...first, ...held]) socket.destroy();
}
