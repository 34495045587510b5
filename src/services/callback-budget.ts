import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { Tenant } from '../store/tenant.js';
import { dropOldestFinished } from './callback-journal.js';

/**
 * What all tenants' callback journals hold together (--max-callback-journal-bytes). Each tenant keeps its last
 * --callback-journal-size deliveries, each holding the task it sent: a per-tenant cap multiplies by the number of
 * keys, so memory under many busy tenants had no ceiling. Past the budget, the tenant holding the most lets its
 * oldest finished delivery go, as the request journals' budget does; pending deliveries stay (their retries still
 * write to them). Sizes are estimates made once per delivery, from bytes the task already keeps.
 */
/** Told of each delivery the budget lets go, with the tenant whose journal held it. */
type DropListener = (tenant: Tenant, dropped: CallbackDelivery) => void;

export class CallbackJournalBudget {
  private total = 0;
  /** By tenant key: a reset tenant's successor starts from nothing (forget). */
  private readonly holders = new Map<string, { tenant: Tenant; bytes: number }>();
  private readonly sizes = new WeakMap<CallbackDelivery, number>();

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  /** A delivery newly journaled by `tenant`, of about `bytes`; past the budget the largest journal gives way. */
  journaled(tenant: Tenant, delivery: CallbackDelivery, bytes: number, onDrop: DropListener): void {
    if (this.sizes.has(delivery)) return;
    let holder = this.holders.get(tenant.key);
    if (holder?.tenant !== tenant) {
      if (holder) this.total -= holder.bytes;
      holder = { tenant, bytes: 0 };
      this.holders.set(tenant.key, holder);
    }
    this.sizes.set(delivery, bytes);
    holder.bytes += bytes;
    this.total += bytes;
    while (this.total > this.maxBytes && this.dropFromLargest(onDrop)) {
      // each turn let one delivery go
    }
  }

  /** A delivery the journal let go (its own cap, or this budget). */
  dropped(tenant: Tenant, delivery: CallbackDelivery): void {
    const size = this.sizes.get(delivery);
    const holder = this.holders.get(tenant.key);
    if (size === undefined || holder?.tenant !== tenant) return;
    this.sizes.delete(delivery);
    holder.bytes -= size;
    this.total -= size;
    if (holder.bytes <= 0) this.holders.delete(tenant.key);
  }

  /** The tenant was reset or replaced by an import: what its journal held is gone. */
  forget(tenantKey: string): void {
    const holder = this.holders.get(tenantKey);
    if (!holder) return;
    this.total -= holder.bytes;
    this.holders.delete(tenantKey);
  }

  /** One finished delivery of the largest journal that has one; false when every journal holds pending ones only. */
  private dropFromLargest(onDrop: DropListener): boolean {
    const largest = [...this.holders.values()].sort((a, b) => b.bytes - a.bytes);
    for (const { tenant } of largest) {
      const dropped = dropOldestFinished(tenant.callbacks);
      if (!dropped) continue;
      this.dropped(tenant, dropped);
      onDrop(tenant, dropped);
      return true;
    }
    return false;
  }
}
