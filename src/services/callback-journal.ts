import type { CallbackDelivery } from '../domain/callbacks/schemas.js';

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
  onDrop?: (id: string) => void,
): void {
  journal.push(delivery);
  while (journal.length > max) {
    const oldestFinished = journal.findIndex((entry) => entry.state !== 'pending');
    if (oldestFinished === -1) return;
    const [dropped] = journal.splice(oldestFinished, 1);
    if (dropped) onDrop?.(dropped.id);
  }
}
