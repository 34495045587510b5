import type { Context, MiddlewareHandler } from 'hono';
import { FILE_MAX_BYTES, FILE_UPLOAD_PATH, MULTIPART_OVERHEAD_BYTES } from '../domain/files/limits.js';
import { bodyTooLarge, uploadPartTooLarge } from '../errors/index.js';
import { readTextWithin } from './body-text.js';

/**
 * Bounds every request body before anything reads it: JSON bodies by the configured limit, file
 * uploads by the interface's 80 MB per file. A declared Content-Length over the limit is refused
 * before a byte is read; a streamed upload is counted by the multipart reader (http/multipart.ts)
 * and cut off at the limit, so an oversize upload never sits in memory.
 *
 * Judged from the headers, never `c.req.raw.body`: under @hono/node-server that builds a whole web
 * Request and a web stream over the socket, and the route's `c.req.text()` then reads through them
 * rather than straight from the Node request. hono's bodyLimit did so on every JSON POST, which ran
 * at little more than half the speed it does now.
 */
export function bodyLimits(maxJsonBytes: number): MiddlewareHandler {
  const uploadMax = FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES;
  const json: MiddlewareHandler = async (c, next) => {
    const declared = declaredLength(c);
    if (declared !== undefined) {
      // The HTTP parser holds the body to its declared length: within it, the route reads it whole.
      if (declared > maxJsonBytes) throw bodyTooLarge(maxJsonBytes);
    } else {
      // No length (chunked, or a stream in process): read here, counted, and kept for the route.
      await readTextWithin(c, maxJsonBytes);
    }
    await next();
  };
  // Not read here: an upload is streamed by the multipart reader, which counts it as it goes.
  const upload: MiddlewareHandler = (c, next) => {
    const declared = declaredLength(c);
    if (declared !== undefined && declared > uploadMax) throw uploadTooLarge('body');
    return next();
  };
  return (c, next) => {
    // A GET or HEAD never carries a body (the Request API refuses one): nothing to bound.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return c.req.path === FILE_UPLOAD_PATH ? upload(c, next) : json(c, next);
  };
}

/** The body's declared length (read as hono's bodyLimit did); undefined when it declares none or is chunked. */
function declaredLength(c: Context): number | undefined {
  const contentLength = c.req.header('content-length');
  if (contentLength === undefined || c.req.header('transfer-encoding') !== undefined) return undefined;
  return Number.parseInt(contentLength, 10) || 0;
}

/** The 413 of an upload: the file part (or the body around it) over the interface's 80 MB. */
export const uploadTooLarge = (part: string) =>
  uploadPartTooLarge(part === 'body' ? 'file' : part, `80 MB (${FILE_MAX_BYTES} bytes)`);
