/** A stored outcome of a request sent with an Idempotency-Key. */
export interface IdempotencyEntry {
  tenantKey: string;
  /** A digest of method, path and canonical body: equal requests match, and a record never holds the request. */
  fingerprint: string;
  state: 'in_flight' | 'done';
  status?: number;
  /** The response, kept once as the JSON text that is replayed. */
  body?: string;
  expiresMs: number;
}

/**
 * One tenant's records in the order they were stored, each with the expiry it had then. A tenant's
 * clock only moves forward and every record lives the same time, so records expire in this order: a
 * sweep takes them from the front and stops at the first live one, never walking the rest.
 */
class ExpiryQueue {
  private keys: string[] = [];
  private expiries: number[] = [];
  private head = 0;

  get length(): number {
    return this.keys.length - this.head;
  }

  push(key: string, expiresMs: number): void {
    this.keys.push(key);
    this.expiries.push(expiresMs);
  }

  peek(): { key: string; expiresMs: number } | undefined {
    const key = this.keys[this.head];
    const expiresMs = this.expiries[this.head];
    return key === undefined || expiresMs === undefined ? undefined : { key, expiresMs };
  }

  shift(): void {
    this.head += 1;
    // Compact once the taken part dominates, so a long-lived tenant's queue does not keep dead keys.
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.expiries = this.expiries.slice(this.head);
      this.head = 0;
    }
  }

  all(): string[] {
    return this.keys.slice(this.head);
  }
}

/**
 * Keys are global: the same key from another tenant is a conflict, not a separate entry. Each
 * tenant's records also sit in an expiry queue, so expired ones are swept against that tenant's
 * virtual clock (see sweep) instead of waiting for the same key to come back.
 */
export class IdempotencyStore {
  private readonly entries = new Map<string, IdempotencyEntry>();
  private readonly queues = new Map<string, ExpiryQueue>();
  /** Records held per tenant. */
  private readonly counts = new Map<string, number>();
  /** Told of every record stored (the --data-dir journal listens); unset when state lives in memory only. */
  onStored: ((key: string, entry: IdempotencyEntry) => void) | undefined = undefined;

  /** Records held, expired or not (for tests and measurements). */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): IdempotencyEntry | undefined {
    return this.entries.get(key);
  }

  /** Stores or updates a record; a new one (or one replacing an expired record) joins its tenant's queue. */
  set(key: string, entry: IdempotencyEntry): void {
    const previous = this.entries.get(key);
    this.entries.set(key, entry);
    this.onStored?.(key, entry);
    if (previous && previous.tenantKey === entry.tenantKey && previous.expiresMs === entry.expiresMs) return;
    if (previous) this.countDown(previous.tenantKey);
    this.counts.set(entry.tenantKey, this.heldBy(entry.tenantKey) + 1);
    let queue = this.queues.get(entry.tenantKey);
    if (!queue) {
      queue = new ExpiryQueue();
      this.queues.set(entry.tenantKey, queue);
    }
    queue.push(key, entry.expiresMs);
  }

  /** Removes a record; its key stays queued until a sweep passes it, which then skips it. */
  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.countDown(entry.tenantKey);
  }

  /** How many records a tenant holds: a tenant with any is not empty. */
  heldBy(tenantKey: string): number {
    return this.counts.get(tenantKey) ?? 0;
  }

  /** Drops the tenant's records whose expiry its clock has reached, oldest first; answers how many. */
  sweep(tenantKey: string, nowMs: number): number {
    const queue = this.queues.get(tenantKey);
    if (!queue) return 0;
    let dropped = 0;
    for (let next = queue.peek(); next; next = queue.peek()) {
      const entry = this.entries.get(next.key);
      // A queued key whose record was deleted or stored again since is stale: skipped, not waited on.
      const current = entry !== undefined && entry.tenantKey === tenantKey && entry.expiresMs === next.expiresMs;
      if (current && next.expiresMs > nowMs) break;
      queue.shift();
      if (current) {
        this.delete(next.key);
        dropped += 1;
      }
    }
    if (queue.length === 0) this.queues.delete(tenantKey);
    return dropped;
  }

  /** Tenants with records queued: what a periodic sweep visits. */
  tenantsHolding(): string[] {
    return [...this.queues.keys()];
  }

  /** The tenant's records, oldest first (a snapshot of the tenant carries them). */
  entriesOf(tenantKey: string): [string, IdempotencyEntry][] {
    const held: [string, IdempotencyEntry][] = [];
    for (const key of this.queues.get(tenantKey)?.all() ?? []) {
      const entry = this.entries.get(key);
      if (entry?.tenantKey === tenantKey) held.push([key, entry]);
    }
    return held;
  }

  /** A reset: the tenant's records go, found through its queue rather than a walk of every record. */
  forgetTenant(tenantKey: string): void {
    for (const key of this.queues.get(tenantKey)?.all() ?? []) {
      if (this.entries.get(key)?.tenantKey === tenantKey) this.delete(key);
    }
    this.queues.delete(tenantKey);
  }

  private countDown(tenantKey: string): void {
    const left = (this.counts.get(tenantKey) ?? 1) - 1;
    if (left > 0) this.counts.set(tenantKey, left);
    else this.counts.delete(tenantKey);
  }
}
