import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface ShutdownResult {
  /** True when the deadline passed and connections with requests still in flight were cut. */
  forced: boolean;
}

/**
 * Graceful shutdown of an HTTP server. Call it right after the server is created: it watches the
 * connections from then on, so that when the returned function is called it can tell them apart:
 * - idle keep-alive connections, and connections whose request headers have not all arrived
 *   (a half-sent request: nothing has started for it), are closed at once;
 * - a connection with a request being handled keeps going until its answer is sent, and is then
 *   closed (the answer says `Connection: close`);
 * - after `timeoutMs` whatever is left is cut, so a client that holds a request open can delay
 *   the exit by at most that long. `server.close()` alone would wait for it forever.
 * New connections are refused from the first moment.
 */
export function gracefulShutdown(server: Server, timeoutMs: number): () => Promise<ShutdownResult> {
  const sockets = new Set<Socket>();
  /** Answers being made per connection (HTTP/1.1 pipelining can queue more than one). */
  const busy = new Map<Socket, Set<ServerResponse>>();
  let stopping = false;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  // Before the app's listener, so the Connection header is set before the answer is written.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const answers = busy.get(socket) ?? new Set<ServerResponse>();
    busy.set(socket, answers.add(res));
    if (stopping) res.setHeader('connection', 'close');
    res.once('close', () => {
      answers.delete(res);
      if (answers.size > 0) return;
      busy.delete(socket);
      if (stopping) socket.end();
    });
  });

  let result: Promise<ShutdownResult> | undefined;
  const stop = () =>
    new Promise<ShutdownResult>((resolve) => {
      stopping = true;
      const deadline = setTimeout(() => {
        for (const socket of sockets) socket.destroy();
        resolve({ forced: true });
      }, timeoutMs);
      server.close(() => {
        clearTimeout(deadline);
        resolve({ forced: false });
      });
      for (const socket of sockets) {
        const answers = busy.get(socket);
        if (!answers) socket.destroy();
        else for (const res of answers) if (!res.headersSent) res.setHeader('connection', 'close');
      }
    });
  // Asked twice (SIGTERM, then SIGINT): one shutdown, one answer.
  return () => (result ??= stop());
}
