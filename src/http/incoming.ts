import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * The Node request under a request served by @hono/node-server (`c.env.incoming`); undefined in
 * process (`app.request`), where the body is only a web stream. Reading the body from it directly
 * spares the server building a whole web Request (and its stream) around it.
 */
export function incomingOf(c: Context): IncomingMessage | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('incoming' in env)) return undefined;
  return env.incoming instanceof IncomingMessage ? env.incoming : undefined;
}

/** The Node response under a request served by @hono/node-server (`c.env.outgoing`); undefined in process. */
export function outgoingOf(c: Context): ServerResponse | undefined {
  const env: unknown = c.env;
  if (typeof env !== 'object' || env === null || !('outgoing' in env)) return undefined;
  return env.outgoing instanceof ServerResponse ? env.outgoing : undefined;
}
