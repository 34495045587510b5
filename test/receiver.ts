import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

interface Received {
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * A callback receiver on loopback. `answer` picks the status for the n-th request (0-based);
 * 'hang' holds the request open until the receiver closes.
 */
export async function startReceiver(answer: (n: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers, body: text ? JSON.parse(text) : undefined });
      const status = answer(n);
      if (status === 'hang') held.push(res);
      else res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    held,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` passes (or throws its last error after 5 s). */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Receivers for one test file: each test asks for as many as it needs, and all of them are closed
 * after it (call at the top level of the file).
 */
export function receiverPool() {
  const open: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (answer?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(answer);
    open.push(r);
    return r;
  };
}
