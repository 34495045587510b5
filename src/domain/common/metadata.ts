import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { METADATA_MAX_BYTES } from './input-limits.js';

/**
 * Metadata: a client's own key-value pairs, stored exactly as sent, at most 10 KB as UTF-8 JSON
 * wherever it is set (task creation and setMetadata, batches, file uploads and imports, state imports).
 *
 * Not `z.record()`: zod rebuilds a record key by key and skips a `__proto__` key (assigning it would
 * set the prototype), so `{"__proto__": ...}` metadata was silently dropped. The object JSON.parse
 * made is kept instead, so such a key stays an ordinary own property, stored and answered as sent.
 */

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The UTF-8 size of a value as JSON: the measure of the metadata limit. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** A JSON object, kept as the object it is (zod's record would rebuild it); a filter, for instance. */
export const JsonObjectSchema = extendApi(
  z.custom<Record<string, unknown>>(isPlainObject, (value) => ({
    message: `must be an object (got ${z.getParsedType(value)})`,
  })),
  { type: ['object'], additionalProperties: {} },
);

const metadataObject = () =>
  JsonObjectSchema.superRefine((value, ctx) => {
    const size = jsonBytes(value);
    if (size > METADATA_MAX_BYTES) {
      ctx.addIssue({
        code: 'custom',
        message: `must be at most 10 KB (${METADATA_MAX_BYTES} bytes) as JSON (got ${size} bytes)`,
      });
    }
  });

const METADATA_DOC = { type: ['object' as const], additionalProperties: {} };

/** Metadata as a client sets it: a JSON object of at most 10 KB, kept as sent. */
export const MetadataSchema = extendApi(metadataObject(), {
  ...METADATA_DOC,
  description: 'Key-value pairs, at most 10 KB as JSON',
  example: { customer_ref: 'order-17' },
});

/** The body of a setMetadata route: the metadata object itself, same rules. */
export const MetadataBodySchema = extendApi(metadataObject(), {
  ...METADATA_DOC,
  description: 'The metadata object itself, at most 10 KB as JSON',
});

/**
 * Metadata of a stored object (responses, state imports), kept as it is. A state import holds it to
 * the same limit: whatever was stored passed it when it was set.
 */
export const StoredMetadataSchema = extendApi(metadataObject(), { ...METADATA_DOC });

/**
 * `merge: true` of v2's metadata routes: a deep merge, as the docs and the Python client's field description say
 * ("deep merge"). Objects merge key by key at every depth; any other value (arrays included) replaces the one
 * before. Neither input is changed; keys are defined, so a `__proto__` key stays an ordinary key.
 */
export function deepMergeMetadata(
  current: Record<string, unknown>,
  given: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(given)) {
    const before = Object.hasOwn(merged, key) ? merged[key] : undefined;
    const next = isPlainObject(before) && isPlainObject(value) ? deepMergeMetadata(before, value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}
