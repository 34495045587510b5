/** Distinct parameter names a tenant's tally keeps; past them, ignored names are counted in `other`. */
export const MAX_TALLIED_NAMES = 100;
/** Distinct names all tenants' tallies keep together: past them, new names are counted in `other` too. */
const MAX_TALLIED_NAMES_IN_ALL = 50_000;
/** Characters of one kept name: a key may be any length (the Labelmock-Warning header cuts it the same way). */
const MAX_TALLIED_NAME_CHARS = 100;

/** A name as the tally and the header keep it: its first MAX_TALLIED_NAME_CHARS characters, marked when cut. */
export function keptName(name: string): string {
  return name.length > MAX_TALLIED_NAME_CHARS ? `${name.slice(0, MAX_TALLIED_NAME_CHARS)}..."` : name;
}

/** The names every tenant's tally holds, counted together (one per store). */
export class TallyBudget {
  held = 0;
  constructor(readonly maxNames = MAX_TALLIED_NAMES_IN_ALL) {}
}

/**
 * The parameters a tenant's requests sent that labelmock ignored (lenient unknown_params), by name: what
 * GET /_mock/warnings answers, so a suite can see every typo its app sends without reading each answer's
 * header. Bounded per tenant (MAX_TALLIED_NAMES names of at most MAX_TALLIED_NAME_CHARS characters) and in all
 * (the budget): a client sending a new key per request, or megabyte-long keys, fills the names, then only the
 * counts grow.
 */
export class WarningTally {
  private readonly byName = new Map<string, number>();
  private released = false;
  total = 0;
  other = 0;

  constructor(private readonly budget: TallyBudget = new TallyBudget()) {}

  add(names: readonly string[], count: number): void {
    this.total += count;
    // Names past those noted (a request keeps the first few) are counted without one.
    this.other += count - names.length;
    for (const name of names) {
      const kept = keptName(name);
      const seen = this.byName.get(kept);
      if (seen !== undefined) this.byName.set(kept, seen + 1);
      else if (this.byName.size < MAX_TALLIED_NAMES && this.budget.held < this.budget.maxNames && !this.released) {
        this.byName.set(kept, 1);
        this.budget.held += 1;
      } else this.other += 1;
    }
  }

  /** The tenant was replaced (a reset): its names leave the budget, and it keeps no new ones. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.held -= this.byName.size;
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
