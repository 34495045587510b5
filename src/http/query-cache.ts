import type { Context } from 'hono';
import type { ZodType, ZodTypeDef } from 'zod';
import { parseOrThrow } from '../domain/validate.js';
import { deepFreeze } from '../store/frozen.js';
import { Kept } from './kept.js';
import { querySchemaFor } from './query-schema.js';

/** Query texts a route keeps the parse of (bounded: kept.ts). */
const MAX_KEPT = 256;
/** Longer query texts are parsed every time: few clients send such. */
const MAX_KEPT_CHARS = 512;

/** The raw query text of a request ('' without one). */
export function queryText(c: Context): string {
  const url = c.req.url;
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/**
 * A route's query parser, from the request's raw query text. A query's parse depends on its text
 * alone, and clients send the same one again and again (a list polled until its tasks are done, the
 * pages of a filter), so the route keeps each valid text's parse, frozen so no handler can change
 * what the next request gets: on a repeat, neither the query's decoding nor zod runs (about 3 µs of
 * a list request). A query that fails is parsed again each time and throws its 400.
 */
export function queryParser<T>(schema: ZodType<T, ZodTypeDef, unknown> | undefined): (c: Context) => T {
  // A route that declares no query reads the raw one (nothing to parse, nothing to keep).
  if (!schema) return (c) => c.req.queries() as T;
  const queryFor = querySchemaFor(schema);
  const kept = new Kept<T>(MAX_KEPT, MAX_KEPT_CHARS);
  return (c) => {
    const text = queryText(c);
    const found = kept.get(text);
    if (found !== undefined) return found;
    const query = c.req.queries();
    return kept.keep(text, deepFreeze(parseOrThrow(queryFor ? queryFor(query) : schema, query, '')));
  };
}
