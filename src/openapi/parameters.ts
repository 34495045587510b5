import type { ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { type ZodTypeAny, z } from 'zod';
import { queryBoolean, queryList, queryString, queryTime, queryTimeEnd } from '../http/query.js';

/**
 * Query values as the server reads them (src/http/query.ts), not as zod's output: a query value is
 * always text, a list comes as one value or a repeated key, a boolean in any letter case.
 */
const QUERY_BOOLEAN: SchemaObject = {
  type: 'string',
  pattern: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|[01])$',
  description: 'true or false in any letter case (the Python client sends True/False), or 1 or 0',
  examples: ['true', 'False'],
};

/** One value or the key repeated. `item` describes each value. */
export const queryListOf = (item: SchemaObject, description: string): SchemaObject => ({
  anyOf: [item, { type: 'array', items: item }],
  description,
});

/** A comma list of enum values (spaces around values and empty values are ignored). */
export function commaEnum(values: readonly string[]): SchemaObject {
  const one = `(${values.join('|')})?`;
  return {
    type: 'string',
    pattern: `^\\s*${one}\\s*(,\\s*${one}\\s*)*$`,
    description: `One of ${values.join(', ')}, or several joined with commas`,
    examples: [values[0], values.slice(0, 2).join(',')],
  };
}

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
  if (own?.anyOf) return own;
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
  return Object.entries(schema.shape as Record<string, ZodTypeAny>).map(
    ([name, field]): ParameterObject => ({
      name,
      in: 'query',
      required: !field.isOptional(),
      schema: knownQuerySchema(field) ?? generate(field),
    }),
  );
}
