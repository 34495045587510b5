/** A stored outcome of a request sent with an Idempotency-Key. */
export interface IdempotencyEntry {
  tenantKey: string;
  fingerprint: string;
  state: 'in_flight' | 'done';
  status?: number;
  body?: string;
  expiresMs: number;
}

/** Keys are global: the same key from another tenant is a conflict, not a separate entry. */
export class IdempotencyStore {
  private readonly entries = new Map<string, IdempotencyEntry>();

  get(key: string): IdempotencyEntry | undefined {
    return this.entries.get(key);
  }

  set(key: string, entry: IdempotencyEntry): void {
    this.entries.set(key, entry);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  forgetTenant(tenantKey: string): void {
    for (const [key, entry] of this.entries) if (entry.tenantKey === tenantKey) this.entries.delete(key);
  }

}
