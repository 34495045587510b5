import type { ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { type ZodTypeAny, z } from 'zod';
import { QUERY_BOOLEAN_WORDS, queryBoolean, queryList, queryString, queryTime, queryTimeEnd } from '../http/query.js';

/**
 * Query values as a generated client should send them: booleans, lists as arrays (`style: form, explode: true`:
 * the key repeated). A flag is a boolean or one of the words the server reads (the Python client sends
 * `True`/`False`), so the document allows every flag the official clients send and generated types stay exact
 * (`boolean | "True" | ...`). Comma-joined lists and `key[]` are said in the descriptions (the self-check reads
 * those too).
 */
const QUERY_BOOLEAN: SchemaObject = {
  anyOf: [{ type: 'boolean' }, { type: 'string', enum: [...QUERY_BOOLEAN_WORDS.keys()] }],
  description: 'true or false; also True/False (as the Python client sends them), TRUE/FALSE and 1/0',
};

/** A list: the key repeated (`key[]` is read as `key`). `item` describes each value. */
export const queryListOf = (item: SchemaObject, description: string): SchemaObject => ({
  type: 'array',
  items: item,
  description: `${description}; \`key[]\` is read as \`key\``,
});

/**
 * One value of a fixed set. `joined`: or several joined with commas, where a client sends them so: the official
 * Python client sends a list of review statuses as `customer_review_status=accepted,rejected`
 * (scaleapi/scaleapi-python-client@b4111b2, scaleapi/__init__.py, `_process_tasks_endpoint_args`). Elsewhere the
 * values stay an enum, so generated clients keep refusing a misspelt one (the server also reads commas there: a
 * leniency the description names).
 */
export const enumItem = (values: readonly string[], joined = false): SchemaObject => {
  if (!joined) return { type: 'string', enum: [...values] };
  const one = values.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return {
    anyOf: [
      { type: 'string', enum: [...values] },
      { type: 'string', pattern: `^(${one})(,(${one}))+$`, description: 'Several of the values, joined with commas' },
    ],
  };
};

const ISO_TIME = '^\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}:?\\d{2})?)?$';

const timeBound = (end: boolean): SchemaObject => ({
  type: 'string',
  pattern: ISO_TIME,
  description:
    'An ISO 8601 date or datetime; a datetime without offset is UTC' +
    (end ? ', and a bare date means the end of that day' : ''),
  examples: ['2026-01-31', '2026-01-31T12:00:00Z'],
});

/** The shared query fields of src/http/query.ts, by identity (refinements and extendApi keep the `_def`). */
const KNOWN: [ZodTypeAny, SchemaObject][] = [
  [queryBoolean, QUERY_BOOLEAN],
  [queryList, queryListOf({ type: 'string' }, 'Repeat the key, or join values with commas')],
  [queryString, { type: 'string' }],
  [queryTime, timeBound(false)],
  [queryTimeEnd, timeBound(true)],
];

/** The documented schema of a known query field, or undefined to generate it from the zod schema. */
function knownQuerySchema(field: ZodTypeAny): SchemaObject | undefined {
  // A list field documented whole by its own extendApi (e.g. enum lists in routes/task-schemas.ts).
  const own = (field as { metaOpenApi?: SchemaObject }).metaOpenApi;
  if (own?.type === 'array') return own;
  let current: ZodTypeAny | undefined = field;
  while (current) {
    const def: unknown = current._def;
    const hit = KNOWN.find(([known]) => known._def === def);
    if (hit) {
      return { ...hit[1], ...(own?.description && { description: own.description }) };
    }
    current =
      current instanceof z.ZodEffects && current._def.effect.type === 'refinement'
        ? (current._def.schema as ZodTypeAny)
        : undefined;
  }
  return undefined;
}

export function queryParameters(schema: ZodTypeAny | undefined, generate: (field: ZodTypeAny) => SchemaObject) {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([name, field]): ParameterObject => {
    const schema = knownQuerySchema(field) ?? generate(field);
    return {
      name,
      in: 'query',
      required: !field.isOptional(),
      // Said outright, though they are the defaults: generators differ in what they assume.
      ...(schema.type === 'array' && { style: 'form', explode: true }),
      schema,
    };
  });
}
