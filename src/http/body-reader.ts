import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { incomingOf } from './incoming.js';

/**
 * A request body read chunk by chunk, pulled: nothing is read from the socket until asked for, so a
 * slow consumer (a multipart part written to disk, a busy event loop) holds the client back instead
 * of the body piling up in memory.
 *
 * Under @hono/node-server it reads the Node request itself, not `c.req.raw.body`: that is a web stream
 * the server builds over `Readable.toWeb(incoming)`, which copies every chunk (an upload's size again
 * in garbage, lifting the peak memory) and, on Node releases whose toWeb counted chunks against a
 * byte high-water mark (nodejs/node#46347), queued a whole upload ahead of a slow reader.
 * In process (`app.request`) there is only the web stream, read the same way.
 */
export interface BodyReader {
  /** The next chunk; undefined once the body has ended. Rejects when the client went away mid-body. */
  read(): Promise<Uint8Array | undefined>;
  /** Stops reading and leaves the rest unread: the answer must still go out on this connection. */
  release(): void;
  /** Gives the rest of the body up: the connection may be closed. */
  cancel(): void;
}

export function bodyReader(c: Context): BodyReader | undefined {
  const incoming = incomingOf(c);
  if (incoming) return incomingReader(incoming);
  const body = c.req.raw.body;
  return body ? streamReader(body.getReader()) : undefined;
}

function incomingReader(incoming: IncomingMessage): BodyReader {
  // Not destroyed when left early (`return()`): a refused body must still let the answer out. Node's
  // iterator reads in paused mode, one `read()` per chunk, so the socket is read only as it is pulled.
  const chunks = incoming.iterator({ destroyOnReturn: false });
  return {
    read: async () => {
      const next = await chunks.next();
      return next.done ? undefined : (next.value as Buffer);
    },
    release: () => {
      void chunks.return?.();
    },
    cancel: () => {
      void chunks.return?.();
      incoming.destroy();
    },
  };
}

function streamReader(reader: ReadableStreamDefaultReader<Uint8Array>): BodyReader {
  return {
    read: async () => {
      const next = await reader.read();
      return next.done ? undefined : next.value;
    },
    release: () => reader.releaseLock(),
    cancel: () => {
      reader.cancel().catch(() => {});
    },
  };
}
