import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { FILE_MAX_BYTES, FILE_UPLOAD_PATH, MULTIPART_OVERHEAD_BYTES } from '../domain/files/limits.js';
import { ApiError } from '../errors.js';

/**
 * Bounds every request body before anything reads it: JSON bodies by the configured limit, file
 * uploads by the interface's 80 MB per file. A declared Content-Length over the limit is refused
 * before a byte is read; a chunked body is counted as it streams and cut off at the limit, so an
 * oversize upload never sits in memory.
 */
export function bodyLimits(maxJsonBytes: number): MiddlewareHandler {
  const json = bodyLimit({
    maxSize: maxJsonBytes,
    onError: () => {
      throw new ApiError('payload_too_large', `Request body is larger than the limit of ${maxJsonBytes} bytes`);
    },
  });
  const upload = bodyLimit({
    maxSize: FILE_MAX_BYTES + MULTIPART_OVERHEAD_BYTES,
    onError: () => {
      throw new ApiError('payload_too_large', `Parameter is invalid, reason: "file" must be at most 80 MB (${FILE_MAX_BYTES} bytes)`);
    },
  });
  return (c, next) => (c.req.path === FILE_UPLOAD_PATH ? upload(c, next) : json(c, next));
}
