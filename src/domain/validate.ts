import type { ZodType, ZodTypeDef } from 'zod';
import { invalidParameters } from '../errors/index.js';

/** Parses with a zod schema or throws the 400 whose message names each field and rule. */
export function parseOrThrow<T>(schema: ZodType<T, ZodTypeDef, unknown> | undefined, value: unknown, prefix = ''): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (!result.success) throw invalidParameters(result.error, prefix);
  return result.data;
}
