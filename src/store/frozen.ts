/**
 * Freezes a value and everything it holds. Stored tasks are frozen on write, so the store can hand
 * the very objects out (no copy per read) and no caller can change what the store holds.
 * A frozen object's children were frozen with it (this is the only freezer), so it is not walked again.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
