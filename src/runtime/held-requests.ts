/**
 * Requests that hold a connection open for long, app-wide: event streams, and requests a fault or --latency
 * delays or leaves hanging. Each holds a socket, hence a file descriptor: per-tenant caps multiply by the
 * number of keys, so this one bound keeps descriptors in reserve and the API answering (--max-held-requests).
 *
 * One tenant holds at most a quarter of the budget (at least one), as the callback limiter shares its slots:
 * a tenant with eighty hanging requests is refused at its share, and the others still find room unless four
 * tenants fill theirs at once.
 */
export type HeldRefusal = 'tenant_share' | 'app_budget';

export class HeldRequests {
  private held = 0;
  private readonly byTenant = new Map<string, number>();
  readonly maxPerTenant: number;

  constructor(readonly max: number) {
    this.maxPerTenant = Math.max(1, Math.ceil(max / 4));
  }

  get count(): number {
    return this.held;
  }

  /** What `tenantKey` holds now. */
  heldBy(tenantKey: string): number {
    return this.byTenant.get(tenantKey) ?? 0;
  }

  /** A release function (safe to call twice), or why there is none: the tenant's share or the app's budget. */
  take(tenantKey: string): (() => void) | HeldRefusal {
    const mine = this.byTenant.get(tenantKey) ?? 0;
    if (mine >= this.maxPerTenant) return 'tenant_share';
    if (this.held >= this.max) return 'app_budget';
    this.held += 1;
    this.byTenant.set(tenantKey, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
      const left = (this.byTenant.get(tenantKey) ?? 1) - 1;
      if (left > 0) this.byTenant.set(tenantKey, left);
      else this.byTenant.delete(tenantKey);
    };
  }
}
