import type { Context } from 'hono';
import { ZodObject, type ZodRawShape, type ZodType, type ZodTypeDef } from 'zod';
import { Lenience } from '../domain/lenience.js';
import { parseOrThrow } from '../domain/validate.js';
import { formatPath } from '../errors/zod-messages.js';
import { deepFreeze } from '../store/frozen.js';
import { Kept } from './kept.js';

/**
 * A route's query parser. Clients send the same query text again and again (a list polled until its
 * tasks are done, the pages of a filter), so it keeps two things, both bounded:
 * - per query text, the checked parse, frozen so no handler can change what the next request gets
 *   (a query that fails is parsed again each time and throws its 400);
 * - per set of keys present, the route's schema picked down to those keys: a list query declares about
 *   twenty optional fields and a request names one or two, and zod would run every field's preprocess on
 *   `undefined`. Picking is exact only when every field passes `undefined` through unchanged (an absent
 *   field can then add no value and no issue); strictness and field order are kept.
 * What each saves is measured by `npm run bench:http` (docs/benchmarks.md).
 */

/** Query texts a route keeps the parse of, and the longest kept (few clients send longer ones). */
const MAX_KEPT = 256;
const MAX_KEPT_CHARS = 512;
/** Sets of keys a route keeps a picked schema for: a client naming every combination cannot grow it. */
const MAX_PICKED = 256;

/**
 * The query's values by key, `key[]` read as `key`, empty values left out:
 * - axios and the qs library send a list as `type[]=a&type[]=b`, which means the same filter as `type=a&type=b`;
 * - the Ruby client sends every filter it knows, unset ones bare (`?callback_url&end_time&limit=2&status`), and
 *   the real service answered that as if they were absent (its recording: scaleapi/scaleapi-ruby@e6354d9,
 *   spec/cassettes/task_list_1.yml). An empty value is no value; a key with none left is absent.
 */
export function queryValues(c: Context): Record<string, string[]> {
  const raw = c.req.queries();
  const plainAlready = Object.keys(raw).every((key) => !key.endsWith('[]') && !raw[key]?.includes(''));
  if (plainAlready) return raw;
  // No prototype: a key named `__proto__` is a key like any other.
  const values: Record<string, string[]> = Object.create(null);
  for (const [key, sent] of Object.entries(raw)) {
    const name = key.endsWith('[]') ? key.slice(0, -2) : key;
    const given = sent.filter((value) => value !== '');
    if (given.length > 0) values[name] = [...(values[name] ?? []), ...given];
  }
  return values;
}

/** The raw query text of a request ('' without one). */
export function queryText(c: Context): string {
  const url = c.req.url;
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}

/** A kept parse, with what a lenient read of it ignored (noted again on each request that sends it). */
interface KeptQuery<T> {
  value: T;
  ignored: readonly (string | number)[][];
}

export function queryParser<T>(
  schema: ZodType<T, ZodTypeDef, unknown> | undefined,
): (c: Context, lenience?: Lenience) => T {
  // A route that declares no query reads the raw one (nothing to parse, nothing to keep).
  if (!schema) return (c) => queryValues(c) as T;
  const queryFor = querySchemaFor(schema);
  const kept = new Kept<KeptQuery<T>>(MAX_KEPT, MAX_KEPT_CHARS);
  return (c, lenience) => {
    const text = queryText(c);
    // A lenient parse may answer what a strict one refuses: each is kept under its own key.
    const key = lenience?.ignoreUnknown ? `~${text}` : text;
    const found = kept.get(key);
    if (found !== undefined) {
      for (const path of found.ignored) lenience?.note(`"${formatPath(path)}"`, path);
      return found.value;
    }
    const query = queryValues(c);
    const own = lenience && new Lenience(lenience.ignoreUnknown);
    const value = deepFreeze(parseOrThrow(queryFor ? queryFor(query) : schema, query, '', own));
    const ignored = own?.ignoredPaths ?? [];
    for (const path of ignored) lenience?.note(`"${formatPath(path)}"`, path);
    return kept.keep(key, { value, ignored }).value;
  };
}

/** The schema picked down to a query's keys, or undefined when picking would not answer the same. */
export function querySchemaFor<T>(
  schema: ZodType<T, ZodTypeDef, unknown> | undefined,
): ((query: Record<string, unknown>) => ZodType<T, ZodTypeDef, unknown>) | undefined {
  if (!(schema instanceof ZodObject)) return undefined;
  const object: ZodObject<ZodRawShape> = schema;
  const fields = Object.keys(object.shape);
  const passesAbsent = Object.values(object.shape).every((field) => {
    const result = field.safeParse(undefined);
    return result.success && result.data === undefined;
  });
  if (!passesAbsent) return undefined;
  const picked = new Map<string, ZodType<T, ZodTypeDef, unknown>>();
  return (query) => {
    const present = fields.filter((field) => query[field] !== undefined);
    const key = present.join('&');
    const kept = picked.get(key);
    if (kept) return kept;
    if (picked.size >= MAX_PICKED) picked.clear();
    // zod types `pick` by literal key names; these are known only at run time. The picked schema
    // still parses to T: every field it leaves out is optional and absent from this query.
    const found = object.pick(Object.fromEntries(present.map((field) => [field, true]))) as unknown as ZodType<T>;
    picked.set(key, found);
    return found;
  };
}
