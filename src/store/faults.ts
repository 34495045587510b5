import type { FaultRule } from '../domain/faults/schemas.js';

/** A rule as held: its wire form (counters updated in place), its compiled path and its own generator. */
export interface FaultRuleRecord {
  rule: FaultRule;
  matchesPath: (path: string) => boolean;
  draw: () => number;
}

/**
 * A tenant's fault rules, in the order they are tried. Empty for almost every tenant: the middleware then
 * pays one length check per request.
 */
export class FaultRuleSet {
  private records: FaultRuleRecord[] = [];

  get size(): number {
    return this.records.length;
  }

  all(): readonly FaultRuleRecord[] {
    return this.records;
  }

  add(record: FaultRuleRecord): void {
    this.records.push(record);
  }

  /** Removes one rule; answers it, or undefined when the tenant has none with that id. */
  remove(id: string): FaultRuleRecord | undefined {
    const index = this.records.findIndex((record) => record.rule.id === id);
    if (index < 0) return undefined;
    return this.records.splice(index, 1)[0];
  }

  /** Removes every rule; answers how many there were. */
  clear(): number {
    const count = this.records.length;
    this.records = [];
    return count;
  }
}
