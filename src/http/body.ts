import type { Context } from 'hono';
import { ApiError, invalid } from '../errors.js';

/**
 * Reads a JSON body. An empty body is `undefined`: the official clients send
 * `Content-Type: application/json` on body-less POSTs, and that must not be an error.
 * A body that parses as JSON is accepted whatever its Content-Type (curl -d sends a form type).
 */
export async function readJsonBody(c: Context): Promise<{ raw: string; value: unknown }> {
  const raw = await c.req.text();
  if (raw.trim() === '') return { raw, value: undefined };
  try {
    return { raw, value: JSON.parse(raw) };
  } catch (err) {
    const contentType = c.req.header('content-type') ?? '';
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
