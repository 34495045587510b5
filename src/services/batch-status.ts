import { toIso } from '../runtime/clock.js';
import type { BatchRecord } from '../store/account.js';
import type { Store } from '../store/store.js';
import { batchStatusKey } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';

/**
 * A batch's tasks counted by status, and the life cycle's automatic moves (in_progress <-> completed) that the
 * counts decide (domain/batches/life-cycle.ts).
 */

/** A batch's task counts from the tenant of the mode that made it (tasks are bound to a mode). */
export function batchCountsOf(store: Store, tenant: Tenant, record: BatchRecord) {
  const owner = store.ownerOf(tenant, record);
  return owner ? batchCounts(owner, record) : { pending: 0, completed: 0, error: 0, canceled: 0 };
}

/** Counts of the batch's tasks by status, from the batch+status index: O(log n). `tenant` is the batch's mode. */
export function batchCounts(tenant: Tenant, record: BatchRecord) {
  const tasks = tenant.tasks;
  const count = (status: string) =>
    tasks.index('batch_status').countBetween(batchStatusKey(record.batch.name, status), 0, Infinity);
  return {
    pending: count('pending'),
    completed: count('completed'),
    error: count('error'),
    canceled: count('canceled'),
  };
}

/**
 * A batch past staging reports `completed` exactly when it has tasks and none is pending, and goes
 * back to `in_progress` when a task joins it or is redone. The official clients' own tests keep
 * adding tasks to a batch whose earlier tasks completed at once (the real test mode): that must work.
 * Each move to completed stamps completed_at and fires the batch callback.
 */
export function syncBatchStatus(tenant: Tenant, record: BatchRecord): void {
  const { status } = record.batch;
  // A cancelled batch (v2) stays as its cancel left it.
  if (status === 'staging' || record.hold === 'cancelled') return;
  const counts = batchCounts(tenant, record);
  const done = counts.pending === 0 && counts.completed + counts.error + counts.canceled > 0;
  if (done && status === 'in_progress') {
    tenant.shared.batches.setStatus(record, 'completed');
    tenant.shared.changeBatch(record, ({ batch }) => {
      batch.completed_at = toIso(tenant.stamp());
    });
    tenant.emit({ kind: 'batch_completed', record });
  } else if (!done && status === 'completed') {
    tenant.shared.batches.setStatus(record, 'in_progress');
    tenant.shared.changeBatch(record, ({ batch }) => {
      delete batch.completed_at;
    });
  }
}
