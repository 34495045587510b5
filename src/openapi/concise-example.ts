/**
 * An answer's example cut to what it teaches: a list of structures (annotations, frames, cameras)
 * keeps its first MAX_ITEMS entries. The synthesized answers behind the examples repeat one shape
 * many times, and generators copy each example into the generated code's comments: the full ones
 * made most of a generated client. Lists of plain values or flat points ({x, y}) stay whole: they
 * are one value (a polygon's vertices, a tuple), often with a minimum length. Request examples are
 * left alone: they show how to call.
 */
const MAX_ITEMS = 2;

const isScalar = (value: unknown) => value === null || typeof value !== 'object';
const isFlat = (value: unknown) =>
  isScalar(value) || (!Array.isArray(value) && Object.values(value as object).every(isScalar));

export function conciseExample(value: unknown): unknown {
  if (Array.isArray(value)) return (value.every(isFlat) ? value : value.slice(0, MAX_ITEMS)).map(conciseExample);
  if (isScalar(value)) return value;
  return Object.fromEntries(Object.entries(value as object).map(([key, item]) => [key, conciseExample(item)]));
}
