import fc from 'fast-check';
import type { JsonSchema } from './operations.js';

/**
 * Valid-ish values from a JSON Schema of the OpenAPI document: the right shapes and types, with
 * small lists and plausible strings. Cross-field rules are not modelled: many of these values are
 * refused, and that is fine, the fuzz test only asks that nothing is a 5xx.
 */

const MAX_REF_DEPTH = 4;
const MAX_ITEMS = 3;

const plausibleStrings: Record<string, string[]> = {
  uri: ['https://example.com/a.jpg', 'https://example.com/v.mp4', 's3://bucket/key.png', 'data:image/png;base64,AAAA'],
  'date-time': ['2026-01-01T00:00:00.000Z', '2026-01-31', '2026-01-01 12:00:00.000000'],
  email: ['a@example.com', 'acme@labelmock.test'],
};

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const plausible = plausibleStrings[schema.format] ?? [
    'car',
    'imageannotation',
    'p',
    'b',
    'pending',
    'https://example.com/a.jpg',
  ];
  const max = Math.min(schema.maxLength ?? 12, 12);
  const min = Math.min(schema.minLength ?? 0, max);
  return fc.oneof(fc.constantFrom(...plausible), fc.string({ minLength: min, maxLength: max }));
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1000);
  const low = Math.max(min, -1e6);
  const high = Math.min(Math.max(max, low), 1e6);
  return integer
    ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) })
    : fc.double({ min: low, max: high, noNaN: true });
}

function objectArbitrary(
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  depth: number,
): fc.Arbitrary<unknown> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const entries = Object.entries(properties).map(([key, sub]) => {
    const value = fromSchema(sub, components, depth + 1);
    return [key, required.has(key) ? value : fc.option(value, { nil: undefined, freq: 2 })] as const;
  });
  const base = fc.record(Object.fromEntries(entries));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && entries.length === 0) {
    return fc.dictionary(fc.string({ maxLength: 8 }), fromSchema(schema.additionalProperties, components, depth + 1), {
      maxKeys: MAX_ITEMS,
    });
  }
  return base.map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)));
}

export function fromSchema(
  schema: JsonSchema | undefined,
  components: Record<string, JsonSchema>,
  depth = 0,
): fc.Arbitrary<unknown> {
  if (!schema || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (schema.$ref) {
    if (depth > MAX_REF_DEPTH) return fc.constant(null);
    return fromSchema(components[String(schema.$ref).split('/').pop() ?? ''], components, depth + 1);
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (Array.isArray(variants) && variants.length > 0)
    return fc.oneof(...variants.map((v: JsonSchema) => fromSchema(v, components, depth + 1)));
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : ['object'];
  return fc.oneof(...types.map((type) => typed(type, schema, components, depth)));
}

function typed(
  type: string,
  schema: JsonSchema,
  components: Record<string, JsonSchema>,
  depth: number,
): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const min = Math.min(schema.minItems ?? 0, MAX_ITEMS);
      const max = Math.max(min, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS));
      return depth > MAX_REF_DEPTH + 2
        ? fc.constant([])
        : fc.array(fromSchema(schema.items, components, depth + 1), { minLength: min, maxLength: max });
    }
    default:
      return depth > MAX_REF_DEPTH + 2 ? fc.constant({}) : objectArbitrary(schema, components, depth);
  }
}
