import type { Context } from 'hono';
import { ApiError, bodyCutOff, bodyTooLarge } from '../errors/index.js';
import { bodyReader } from './body-reader.js';

/** Decodes as `Request.text()` does (UTF-8, a leading BOM dropped, bad bytes replaced); it keeps no state. */
const utf8 = new TextDecoder();

/**
 * Reads a body that declares no length (chunked, or a stream in process) within `maxBytes`, and keeps
 * its text where Hono keeps a body it read: `c.req.text()` answers it from then on (the route, the
 * self-check, the journal), so it is read once. Past the limit it is the 413, as soon as the limit
 * is crossed, and the rest is left unread (the Node server drains it after the answer).
 */
export async function readTextWithin(c: Context, maxBytes: number): Promise<void> {
  const reader = bodyReader(c);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    try {
      for (let chunk = await reader.read(); chunk; chunk = await reader.read()) {
        size += chunk.length;
        if (size > maxBytes) throw bodyTooLarge(maxBytes);
        chunks.push(chunk);
      }
    } catch (err) {
      // A read that fails is the client gone mid-body (or shutdown cutting it off), never our bug.
      throw err instanceof ApiError ? err : bodyCutOff();
    } finally {
      reader.release();
    }
  }
  keepText(c, utf8.decode(Buffer.concat(chunks, size)));
}

/**
 * Hono keeps each body it read as a promise (its types say the value; `c.req.text()` returns what is
 * kept as it is, and `.then`s it): a promise it must be, even for an empty body.
 */
function keepText(c: Context, text: string): void {
  (c.req.bodyCache as { text?: Promise<string> }).text = Promise.resolve(text);
}
