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

const goneSignals = new WeakMap<Context, AbortSignal>();

/**
 * Aborts when the client is gone, pipelined or not. @hono/node-server aborts a request's signal when its Node
 * response closes early; a request pipelined behind another on one HTTP/1.1 connection has a response still
 * queued in Node, detached from the socket, which never closes when the connection goes. So the connection's
 * own close counts too, for an answer not yet finished. Made per request on first use (only requests that
 * wait ask: a delay, a hang, a stream, a wait), and its listener leaves the socket when the answer is sent.
 */
export function clientGone(c: Context): AbortSignal {
  const made = goneSignals.get(c);
  if (made) return made;
  const given = c.req.raw.signal;
  const socket = incomingOf(c)?.socket;
  const outgoing = outgoingOf(c);
  let signal = given;
  if (socket && outgoing) {
    const closed = new AbortController();
    const onClose = () => {
      if (!outgoing.writableFinished) closed.abort(new Error('Client connection closed.'));
    };
    if (socket.destroyed) onClose();
    else {
      socket.once('close', onClose);
      outgoing.once('close', () => socket.off('close', onClose));
    }
    signal = AbortSignal.any([given, closed.signal]);
  }
  goneSignals.set(c, signal);
  return signal;
}
