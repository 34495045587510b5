/** A JSON object (not an array, not null): what an answer keyed by name must be before it is read. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
