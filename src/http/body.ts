import type { Context } from 'hono';
import { checkJsonShape, type JsonShapeOptions } from '../domain/common/json-shape.js';
import { malformedBody, unsupportedMediaType } from '../errors/index.js';
import { FORM_TYPE, parseForm } from './form-body.js';

/**
 * The request's text, read once; parsed later so even a malformed body can be an idempotent outcome.
 * A chunked body was read (within the limit) by http/body-limits.ts and is answered from Hono's
 * cache. A sized one is read here: @hono/node-server collects it straight from the Node request,
 * as long as nothing before has touched `c.req.raw.body` (which builds a web Request and stream).
 */
export const readRawBody = (c: Context): Promise<string> => c.req.text();

/**
 * Parses a JSON body. An empty body is `undefined`: the official clients send
 * `Content-Type: application/json` on body-less POSTs, and that must not be an error.
 * A body that parses as JSON is accepted whatever its Content-Type (curl -d sends a form type).
 * Its shape (depth, number of values, `__proto__` keys) is checked on the text first (domain/common/json-shape.ts).
 */
function parseJsonBody(raw: string, contentType: string, limits: JsonShapeOptions = {}): unknown {
  if (raw.trim() === '') return undefined;
  checkJsonShape(raw, limits);
  try {
    return JSON.parse(raw);
  } catch (err) {
    if (contentType === '' || /json/i.test(contentType)) {
      throw malformedBody('JSON', (err as Error).message);
    }
    throw unsupportedMediaType(contentType);
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

/**
 * A body parsed once, its failure kept to be thrown where it belongs (inside the idempotency guard). `form`: it
 * came form-encoded, so its scalars are text (domain/lenience.ts reads them as the schema's numbers and booleans).
 */
export type ParsedBody = { ok: true; value: unknown; form?: boolean } | { ok: false; error: unknown };

/**
 * Parses a request body: JSON, or (where `forms` allows) `application/x-www-form-urlencoded`, which every curl
 * example of the real service's docs sent until 2018 and older clients still send (`fields[title]=...`).
 */
export function tryParseBody(
  raw: string,
  contentType: string,
  limits: JsonShapeOptions = {},
  forms = false,
): ParsedBody {
  try {
    if (forms && FORM_TYPE.test(contentType) && raw.trim() !== '' && !/^\s*[[{]/.test(raw)) {
      return { ok: true, value: parseForm(raw), form: true };
    }
    return { ok: true, value: parseJsonBody(raw, contentType, limits) };
  } catch (error) {
    return { ok: false, error };
  }
}
