/**
 * Values computed from a text alone (a path's route match, a query's parse), kept by that text for
 * the next request that sends it again. Bounded both ways, since clients choose the texts: a text
 * longer than `maxChars` is never kept, and once `maxKept` are kept the next one starts over (a
 * client cycling through endless texts costs what it would without the cache, no memory beyond).
 * A kept value is handed to every request with the text: it must be read-only (frozen, or never
 * changed by its readers).
 */
export class Kept<T> {
  readonly #values = new Map<string, T>();

  constructor(
    private readonly maxKept: number,
    private readonly maxChars: number,
  ) {}

  get(text: string): T | undefined {
    return this.#values.get(text);
  }

  /** Keeps `value` for `text` (when short enough) and answers it. */
  keep(text: string, value: T): T {
    if (text.length > this.maxChars) return value;
    if (this.#values.size >= this.maxKept) this.#values.clear();
    this.#values.set(text, value);
    return value;
  }
}
