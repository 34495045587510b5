import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A callback receiver: an HTTP server on 127.0.0.1 that keeps every request and answers each as told. The one
 * receiver of the kit (receiver.ts wraps it for contracts) and of labelmock's own tests (test/receiver.ts).
 */

/** How the receiver answers one request: an HTTP status, or 'hang' to hold the request open. */
export type Answer = number | 'hang';

export interface ReceivedCallback {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, or undefined when the body was empty or not JSON. */
  body: unknown;
}

export interface ReceiverServer {
  url: string;
  /** Every request, in arrival order. */
  received: ReceivedCallback[];
  /** The held ('hang') requests, in arrival order; a test may answer one itself. */
  held: ServerResponse[];
  /** How many held requests are still open: neither answered nor dropped by the sender. */
  holding(): number;
  /** Drops held requests and stops listening (closing twice is fine). */
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Starts a receiver whose n-th request (0-based) gets `answerOf(n)`. */
export async function listenReceiver(answerOf: (n: number) => Answer): Promise<ReceiverServer> {
  const received: ReceivedCallback[] = [];
  const held: ServerResponse[] = [];
  const closed = new WeakSet<ServerResponse>();
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const answer = answerOf(received.length);
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        text,
        body: parseJson(text),
      });
      if (answer === 'hang') {
        held.push(res);
        res.on('close', () => closed.add(res));
      } else res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    held,
    holding: () => held.filter((res) => !closed.has(res)).length,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
