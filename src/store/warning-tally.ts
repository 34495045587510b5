/** Distinct parameter names a tenant's tally keeps; past them, ignored names are counted in `other`. */
export const MAX_TALLIED_NAMES = 100;

/**
 * The parameters a tenant's requests sent that labelmock ignored (lenient unknown_params), by name: what
 * GET /_mock/warnings answers, so a suite can see every typo its app sends without reading each answer's
 * header. Bounded: a client sending a new key per request fills the names, then only the counts grow.
 */
export class WarningTally {
  private readonly byName = new Map<string, number>();
  total = 0;
  other = 0;

  add(names: readonly string[], count: number): void {
    this.total += count;
    // Names past those noted (a request keeps the first few) are counted without one.
    this.other += count - names.length;
    for (const name of names) {
      const seen = this.byName.get(name);
      if (seen !== undefined) this.byName.set(name, seen + 1);
      else if (this.byName.size < MAX_TALLIED_NAMES) this.byName.set(name, 1);
      else this.other += 1;
    }
  }

  get isEmpty(): boolean {
    return this.total === 0;
  }

  /** Most often first; equal counts by name, so the answer is stable. */
  entries(): { name: string; count: number }[] {
    return [...this.byName]
      .map(([name, count]) => ({ name, count }))
      .sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
