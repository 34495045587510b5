import type { ZodType, ZodTypeDef } from 'zod';
import { invalidParameters } from '../errors/index.js';
import { type Lenience, parseLeniently } from './lenience.js';

/**
 * Parses with a zod schema or throws the 400 whose message names each field and rule. With a request's
 * lenience (domain/lenience.ts), what it allows is repaired first: undeclared keys ignored, form text read.
 */
export function parseOrThrow<T>(
  schema: ZodType<T, ZodTypeDef, unknown> | undefined,
  value: unknown,
  prefix = '',
  lenience?: Lenience,
): T {
  if (!schema) return value as T;
  const result = lenience ? parseLeniently(schema, value, prefix, lenience) : schema.safeParse(value);
  if (!result.success) throw invalidParameters(result.error, prefix);
  return result.data;
}
