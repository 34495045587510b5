import { parse } from 'qs';
import { malformedBody } from '../errors/index.js';

/** A form-encoded body's media type (a JSON text sent under it, as `curl -d '{...}'` does, is still JSON). */
export const FORM_TYPE = /^\s*application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Bounds of a form body, in the spirit of the JSON shape limits (domain/common/json-shape.ts): fields, nesting
 * (`a[b][c]`), and list items (`categories[]=`). Past one, a 400 naming it, never a silent cut.
 */
const FORM_LIMITS = { parameterLimit: 1000, depth: 5, arrayLimit: 1000 } as const;

/**
 * Reads `fields[title]=Title&categories[]=a&categories[]=b` as `{fields: {title}, categories: [a, b]}` with the qs
 * library, the parser of the Express servers those clients were written against. Every value is text. A key
 * that names the prototype (`__proto__[x]`) is dropped, as qs does by default.
 */
export function parseForm(raw: string): Record<string, unknown> {
  try {
    return parse(raw, { ...FORM_LIMITS, strictDepth: true, throwOnLimitExceeded: true, charset: 'utf-8' });
  } catch (error) {
    throw malformedBody('form-urlencoded', (error as Error).message);
  }
}
