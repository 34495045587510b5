import type { ErrorObject, ValidateFunction } from 'ajv';

/** The first five of a validator's complaints, on one line. */
export const describe = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`)
    .join(', ');

/** What is wrong with a JSON body's text against its documented schema (nothing: an empty list). */
export function parsedProblems(validate: ValidateFunction, text: string): string[] {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`the body is not JSON: ${text.slice(0, 80)}`];
  }
  return validate(body) ? [] : [`the body does not match the documented schema: ${describe(validate.errors)}`];
}
