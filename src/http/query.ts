import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/**
 * Query-string values. A key may repeat (`tags=a&tags=b`) or carry a comma list
 * (`customer_review_status=accepted,fixed`); booleans come as the words of QUERY_BOOLEAN_WORDS. The raw query maps
 * each key to all of its values.
 */

/** A key given more than once (`status=a&status=b`) means its last value, as the clients' frameworks read it. */
export const last = (v: unknown) => (Array.isArray(v) ? v[v.length - 1] : v);

export const queryList = extendApi(
  z.preprocess((v) => {
    if (v === undefined) return undefined;
    const values = (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(','));
    return values.map((s) => s.trim()).filter((s) => s !== '');
  }, z.array(z.string()).optional()),
  { type: 'array', items: { type: 'string' }, description: 'Repeat the key or join values with commas' },
);

/**
 * The words a query flag may be: what generated clients send (`true`), what the official Python client sends
 * (`True`/`False`: it puts Python booleans in the query, scaleapi/scaleapi-python-client@b4111b2), and 1/0.
 * One list, read here and documented in src/openapi/parameters.ts, so the document allows what the server reads.
 */
export const QUERY_BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['True', true],
  ['False', false],
  ['TRUE', true],
  ['FALSE', false],
  ['1', true],
  ['0', false],
]);

export const queryBoolean = extendApi(
  z.preprocess((v) => {
    const value = last(v);
    if (value === undefined) return undefined;
    return QUERY_BOOLEAN_WORDS.get(String(value)) ?? value;
  }, z.boolean({ invalid_type_error: `must be one of ${[...QUERY_BOOLEAN_WORDS.keys()].join(', ')}` }).optional()),
  { type: 'boolean' },
);

export const queryString = z.preprocess(last, z.string().optional());

export const queryInt = (min: number, max: number) =>
  extendApi(
    z.preprocess((v) => {
      const value = last(v);
      if (value === undefined || value === '') return undefined;
      return /^-?\d+$/.test(String(value)) ? Number(value) : value;
    }, z.number({ invalid_type_error: 'must be an integer' }).int().min(min).max(max).optional()),
    { type: 'integer', minimum: min, maximum: max },
  );

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * ISO 8601 date or datetime, with or without offset (none means UTC), as epoch ms. A bare date
 * as an upper bound means the end of that day, so `end_time=2026-01-31` includes the 31st.
 */
function parseIsoTime(value: string, bound: 'start' | 'end' = 'start'): number | undefined {
  if (!DATE_ONLY.test(value) && !DATE_TIME.test(value)) return undefined;
  let text = value.replace(' ', 'T');
  if (DATE_ONLY.test(text)) text += bound === 'end' ? 'T23:59:59.999Z' : 'T00:00:00Z';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

const timeBound = (bound: 'start' | 'end') =>
  extendApi(
    z.preprocess(last, z.string().optional()).transform((value, ctx) => {
      if (value === undefined) return undefined;
      const ms = parseIsoTime(value, bound);
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `must be an ISO 8601 date or datetime, e.g. 2026-01-31 or 2026-01-31T12:00:00Z (got "${value}")`,
        });
        return z.NEVER;
      }
      return ms;
    }),
    {
      type: 'string',
      format: 'date-time',
      description: `ISO 8601 date or datetime${bound === 'end' ? ' (a bare date means the end of that day)' : ''}`,
    },
  );

/** A lower time bound (`start_time`, `*_after`). */
export const queryTime = timeBound('start');
/** An upper time bound (`end_time`, `*_before`). */
export const queryTimeEnd = timeBound('end');

/** One value of a fixed set (the last one when the key repeats). */
export const queryEnum = <T extends [string, ...string[]]>(values: T) => z.preprocess(last, z.enum(values).optional());

/**
 * Values of a fixed set, the key repeated for each (`expand=project&expand=batch`, as generated
 * clients send a list) or joined with commas.
 */
export const queryEnumList = <T extends [string, ...string[]]>(values: T) =>
  extendApi(
    z.preprocess((v) => {
      if (v === undefined) return undefined;
      return (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).filter((s) => s.trim() !== '');
    }, z.array(z.enum(values)).optional()),
    { type: 'array', items: { type: 'string', enum: values }, description: 'Repeat the key for each value' },
  );
