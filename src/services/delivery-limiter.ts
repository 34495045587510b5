/**
 * Bounds how many callback deliveries are in flight at once, app-wide, so that no number of
 * receivers that accept a connection and never answer can use up the process's file descriptors
 * (each delivery in flight holds one socket until its answer or its timeout).
 *
 * The rest wait here, first in first out within a tenant and in turns between tenants: a tenant
 * with a thousand hanging receivers queues behind itself, not in front of everyone else. One
 * tenant holds at most a quarter of the slots, so the others always find free ones unless four
 * tenants hang at once. Waiting never blocks a request: deliveries run off the request path.
 */
export class DeliveryLimiter {
  private inFlight = 0;
  private readonly running = new Map<string, number>();
  /** Waiting deliveries per tenant; the Map's order is the turn order (a served tenant goes last). */
  private readonly waiting = new Map<string, Array<() => void>>();
  readonly maxPerTenant: number;

  constructor(readonly maxInFlight: number) {
    this.maxPerTenant = Math.max(1, Math.ceil(maxInFlight / 4));
  }

  /** Deliveries in flight now. */
  get busy(): number {
    return this.inFlight;
  }

  /** Deliveries waiting for a slot. */
  get queued(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** Runs `job` once a slot is free (at once when one is) and frees the slot when it settles. */
  async run<T>(tenantKey: string, job: () => Promise<T>): Promise<T> {
    if (this.waiting.has(tenantKey) || !this.canStart(tenantKey)) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(tenantKey) ?? [];
        queue.push(resolve);
        this.waiting.set(tenantKey, queue);
      });
    } else {
      this.take(tenantKey);
    }
    try {
      return await job();
    } finally {
      this.release(tenantKey);
    }
  }

  /** Drops the waiting deliveries (the app is going away); those in flight end by their timeout. */
  dispose(): void {
    this.waiting.clear();
  }

  /**
   * Drops a tenant's waiting deliveries: the tenant was reset or replaced, so they will never be sent. Without
   * this a key that resets while its receiver lags kept every delivery it ever queued (120,000 after 120,000
   * creations against a 50 ms receiver), each holding the old tenant and its tasks.
   */
  forget(tenantKey: string): void {
    this.waiting.delete(tenantKey);
  }

  private canStart(tenantKey: string): boolean {
    return this.inFlight < this.maxInFlight && (this.running.get(tenantKey) ?? 0) < this.maxPerTenant;
  }

  private take(tenantKey: string): void {
    this.inFlight += 1;
    this.running.set(tenantKey, (this.running.get(tenantKey) ?? 0) + 1);
  }

  private release(tenantKey: string): void {
    this.inFlight -= 1;
    const left = (this.running.get(tenantKey) ?? 1) - 1;
    if (left > 0) this.running.set(tenantKey, left);
    else this.running.delete(tenantKey);
    this.pump();
  }

  /** Hands free slots to waiting deliveries, one tenant per turn. */
  private pump(): void {
    while (this.inFlight < this.maxInFlight) {
      let next: string | undefined;
      for (const key of this.waiting.keys()) {
        if (this.canStart(key)) {
          next = key;
          break;
        }
      }
      if (next === undefined) return;
      const queue = this.waiting.get(next) ?? [];
      const start = queue.shift();
      this.waiting.delete(next);
      if (queue.length > 0) this.waiting.set(next, queue);
      this.take(next);
      start?.();
    }
  }
}
