import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import { invalidParameter } from '../errors/index.js';
import type { Tenant } from '../store/tenant.js';

/**
 * Adds a delivery to a tenant's journal. Beyond `max` entries the oldest finished ones (succeeded,
 * failed, recorded) leave first. Pending deliveries stay whatever their number: their retries
 * still write to them, and each already costs a scheduled job, so the journal outgrows `max` only
 * while more than `max` deliveries are pending.
 */
export function journalDelivery(
  journal: CallbackDelivery[],
  delivery: CallbackDelivery,
  max: number,
  onDrop?: (dropped: CallbackDelivery) => void,
): void {
  journal.push(delivery);
  while (journal.length > max) {
    const dropped = dropOldestFinished(journal);
    if (!dropped) return;
    onDrop?.(dropped);
  }
}

/** Takes the oldest finished delivery (succeeded, failed, recorded) out of the journal; undefined if none. */
export function dropOldestFinished(journal: CallbackDelivery[]): CallbackDelivery | undefined {
  const oldestFinished = journal.findIndex((entry) => entry.state !== 'pending');
  if (oldestFinished === -1) return undefined;
  return journal.splice(oldestFinished, 1)[0];
}

/** Deliveries GET /_mock/callbacks answers at most per call. */
export const MAX_CALLBACK_PAGE = 1000;

export interface DeliveryFilter {
  task_id?: string;
  batch?: string;
  /** A delivery id: only those journaled after it. */
  after?: string;
  limit?: number;
}

/** The tenant's deliveries that pass the filter, oldest first (the journal's order), fixed now. */
export function listDeliveries(tenant: Tenant, filter: DeliveryFilter): CallbackDelivery[] {
  const journal = tenant.callbacks;
  let start = 0;
  if (filter.after !== undefined) {
    const at = journal.findIndex((delivery) => delivery.id === filter.after);
    if (at === -1) throw invalidParameter('after', `names no delivery in the journal ("${filter.after.slice(0, 40)}")`);
    start = at + 1;
  }
  const limit = filter.limit ?? MAX_CALLBACK_PAGE;
  const found: CallbackDelivery[] = [];
  for (let i = start; i < journal.length && found.length < limit; i += 1) {
    const delivery = journal[i];
    if (!delivery) continue;
    if (filter.task_id !== undefined && delivery.task_id !== filter.task_id) continue;
    if (filter.batch !== undefined && delivery.batch !== filter.batch) continue;
    found.push(delivery);
  }
  return found;
}
