import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from '../src/app.js';
import { gracefulShutdown } from '../src/http/shutdown.js';

/**
 * A real server on a free port with the shutdown the CLI uses; `cleanups` gets what stops it (the
 * calling test file runs them after each test).
 */
export async function startShutdownServer(timeoutMs: number, cleanups: (() => unknown)[]) {
  const app = createApp();
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s as Server)) as Server;
  });
  const shutdown = gracefulShutdown(server, timeoutMs);
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
    app.dispose();
  });
  const port = (server.address() as AddressInfo).port;
  return { app, server, port, url: `http://127.0.0.1:${port}`, shutdown };
}
