import type { SchemaObject } from 'openapi3-ts/oas31';

type Json = unknown;
type JsonObject = Record<string, Json>;

const isObject = (value: Json): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys whose values are schema maps, not schemas: a property may be named like a keyword. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keys whose values are data, never schemas: no $ref belongs there. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'required']);

/**
 * Replaces every subtree that is deep-equal to a named component by a `$ref` to it. Walked from the
 * root down, so the biggest match wins and nothing inside it is visited. A subtree that differs from
 * a component only by its `description` becomes a `$ref` with that description beside it (OpenAPI
 * 3.1 allows siblings of `$ref`).
 */
export function referenceNamed(node: Json, named: Map<string, string>): Json {
  if (Array.isArray(node)) return node.map((item) => referenceNamed(item, named));
  if (!isObject(node)) return node;
  const found = named.get(JSON.stringify(node));
  if (found !== undefined) return { $ref: `#/components/schemas/${found}` };
  if (typeof node.description === 'string') {
    const { description, ...rest } = node;
    const bare = named.get(JSON.stringify(rest));
    if (bare !== undefined) return { $ref: `#/components/schemas/${bare}`, description };
  }
  return referenceInside(node, named);
}

/** The same below `node` but not at it: a component's own body is not a reference to itself. */
export function referenceInside(node: object, named: Map<string, string>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node as JsonObject)) {
    if (DATA_KEYS.has(key)) out[key] = value;
    else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceNamed(v, named)]));
    } else out[key] = referenceNamed(value, named);
  }
  return out;
}

/**
 * Tidies what the generator emits, for readers and validators alike:
 * - `type: ["string"]` becomes `type: "string"` (a list stays for several types, e.g. with null);
 * - a zod `union` becomes `anyOf`: zod takes the first branch that parses, so branches may overlap
 *   by design (`callback` as a URL or ""), which a `oneOf` would reject. A `discriminatedUnion`
 *   keeps `oneOf`: its branches differ by a constant tag, so exactly one matches. Its
 *   `discriminator` goes, as its branches are inline and a discriminator can only name components.
 */
export function tidySchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(tidySchema);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA_KEYS.has(key)) out[key] = value;
    else if (key === 'type' && Array.isArray(value) && value.length === 1) out.type = value[0];
    else if (key === 'oneOf' && !('discriminator' in node)) out.anyOf = tidySchema(value);
    // Inline branches: a discriminator cannot name them (it maps to components), and their constant
    // tags already make the oneOf unambiguous.
    else if (
      key === 'discriminator' &&
      Array.isArray(node.oneOf) &&
      !node.oneOf.every((b) => isObject(b) && '$ref' in b)
    ) {
    } else if (SCHEMA_MAPS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tidySchema(v)]));
    } else out[key] = tidySchema(value);
  }
  return out;
}

export const asSchema = (value: Json) => value as SchemaObject;
