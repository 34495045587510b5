/**
 * The values of a list that appeared before (each repeat once per extra appearance), in one pass
 * with a Set: a long list costs its length, not its square. `key` says what counts as the same.
 */
export function repeatedValues<T>(values: Iterable<T>, key: (value: T) => unknown = (value) => value): T[] {
  const seen = new Set<unknown>();
  const repeated: T[] = [];
  for (const value of values) {
    const k = key(value);
    if (seen.has(k)) repeated.push(value);
    else seen.add(k);
  }
  return repeated;
}
