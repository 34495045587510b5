import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { FILE_MAX_BYTES, FILE_UPLOAD_PATH, MULTIPART_OVERHEAD_BYTES } from '../domain/files/limits.js';
import { bodyTooLarge, uploadPartTooLarge } from '../errors.js';

/**
 * Bounds every request body before anything reads it: JSON bodies by the configured limit, file
 * uploads by the interface's 80 MB per file. A declared Content-Length over the limit is refused
 * before a byte is read; a streamed upload is counted by the multipart reader (http/multipart.ts)
 * and cut off at the limit, so an oversize upload never sits in memory.
 */
export function bodyLimits(maxJsonBytes: number): MiddlewareHandler {
  const json = bodyLimit({
    maxSize: maxJsonBytes,
    onError: () => {
      throw bodyTooLarge(maxJsonBytes);
    },
  });
  const uploadMax = FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES;
  // Not hono's bodyLimit here: it buffers a chunked body whole before the route sees it. A declared
  // length over the limit is refused unread; a streamed body is counted by the multipart reader.
  const upload: MiddlewareHandler = (c, next) => {
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > uploadMax && !c.req.header('transfer-encoding')) throw uploadTooLarge('body');
    return next();
  };
  return (c, next) => {
    // A GET or HEAD never carries a body (the Request API refuses one), and asking for it would make
    // @hono/node-server build a whole Request per read: skip the check, it has nothing to bound.
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    return c.req.path === FILE_UPLOAD_PATH ? upload(c, next) : json(c, next);
  };
}

/** The 413 of an upload: the file part (or the body around it) over the interface's 80 MB. */
export const uploadTooLarge = (part: string) =>
  uploadPartTooLarge(part === 'body' ? 'file' : part, `80 MB (${FILE_MAX_BYTES} bytes)`);
