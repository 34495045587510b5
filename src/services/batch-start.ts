import type { Batch } from '../domain/batches/schemas.js';
import type { BatchRecord } from '../store/account.js';
import type { Tenant } from '../store/tenant.js';
import { requireUsableBatch, syncBatchStatus } from './batches.js';
import { releaseHeld } from './completion.js';

/**
 * staging -> in_progress, v1's finalize and v2's: the batch's work begins. A batch whose tasks were all finished
 * already (by the control plane) completes at once; `answer()` then shows the batch, and only after it the
 * completions the staging batch held run (completion mode immediate, a due delay), as the service begins
 * processing once a batch is finalized: the answer says in_progress, the next read may say completed.
 */
export function startBatch<T>(tenant: Tenant, record: BatchRecord, answer: () => T): T {
  tenant.shared.batches.setStatus(record, 'in_progress');
  syncBatchStatus(tenant, record);
  const answered = answer();
  releaseHeld(tenant, record);
  syncBatchStatus(tenant, record);
  return answered;
}

/** `POST /v1/batches/{name}/finalize`: a staging batch starts; any other is answered as it is. */
export function finalizeBatch(tenant: Tenant, name: string): Batch {
  const record = requireUsableBatch(tenant, name, 'batchName');
  if (record.batch.status !== 'staging') return record.batch;
  return startBatch(tenant, record, () => structuredClone(record.batch));
}
