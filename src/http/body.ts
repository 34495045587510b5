import type { Context } from 'hono';
import { ApiError, invalid } from '../errors.js';

/** The request's text, read once; parsed later so even a malformed body can be an idempotent outcome. */
export const readRawBody = (c: Context): Promise<string> => c.req.text();

/**
 * Parses a JSON body. An empty body is `undefined`: the official clients send
 * `Content-Type: application/json` on body-less POSTs, and that must not be an error.
 * A body that parses as JSON is accepted whatever its Content-Type (curl -d sends a form type).
 */
export function parseJsonBody(raw: string, contentType: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch (err) {
    if (contentType === '' || /json/i.test(contentType)) {
      throw invalid(`Request body is not valid JSON: ${(err as Error).message}`);
    }
    throw new ApiError('unsupported_media_type', `Request body must be JSON (Content-Type: application/json); got ${contentType}`);
  }
}

/** Stable serialization (sorted keys), so equal JSON documents compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
