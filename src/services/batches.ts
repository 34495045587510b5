import type { z } from 'zod';
import type { Batch, CreateBatchBodySchema } from '../domain/batches/schemas.js';
import { alreadyExists, invalidParameter } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { BatchRecord } from '../store/account.js';
import type { Store } from '../store/store.js';
import { batchStatusKey } from '../store/task-collection.js';
import { type Tenant, tenantKey } from '../store/tenant.js';
import { requireNamed, requireUsable } from './account-objects.js';
import { requireUsableProject } from './projects.js';

export const requireBatch = (tenant: Tenant, name: string) => requireNamed(tenant, 'batch', name);
export const requireUsableBatch = (tenant: Tenant, name: string, field = 'batch') =>
  requireUsable(tenant, 'batch', name, field);

export function createBatch(tenant: Tenant, body: z.infer<typeof CreateBatchBodySchema>): Batch {
  const { project } = requireUsableProject(tenant, body.project);
  if (tenant.shared.batches.get(body.name)) throw alreadyExists('batch', body.name, 'this account');
  // Calibration batches exist on rapid and Studio projects (Studio orders them first); self-label ones on rapid only.
  if (body.calibration_batch && !project.rapid && !project.studio) {
    throw invalidParameter('calibration_batch', 'is only allowed for batches of rapid or studio projects');
  }
  if (body.self_label_batch && !project.rapid)
    throw invalidParameter('self_label_batch', 'is only allowed for batches of rapid projects');
  const createdMs = tenant.stamp();
  const batch: Batch = {
    name: body.name,
    project: project.name,
    // Real service: batches of rapid or studio projects wait in staging until finalized.
    status: project.rapid || project.studio ? 'staging' : 'in_progress',
    created_at: toIso(createdMs),
    metadata: body.metadata ?? {},
    ...(body.callback && { callback: body.callback }),
    ...(body.calibration_batch !== undefined && { calibration_batch: body.calibration_batch }),
    ...(body.self_label_batch !== undefined && { self_label_batch: body.self_label_batch }),
  };
  tenant.shared.batches.insert(batch, tenant.mode, createdMs);
  return batch;
}

/** staging -> in_progress; on a plain project's batch (or a batch past staging) nothing changes. */

/** Counts of the batch's tasks by status, from the batch+status index: O(log n). `tenant` is the batch's mode. */
/**
 * A batch's task counts from the tenant of the mode that made it (tasks are bound to a mode). Looked
 * up, never made: a read must not create the other mode's tenant.
 */
export function batchCountsOf(store: Store, tenant: Tenant, record: BatchRecord) {
  const owner = record.mode === tenant.mode ? tenant : store.findTenant(tenantKey(tenant.account, record.mode));
  return owner ? batchCounts(owner, record) : { pending: 0, completed: 0, error: 0, canceled: 0 };
}

/** `GET /v1/batches/{name}/status`. */
export function batchStatus(store: Store, tenant: Tenant, name: string) {
  const record = requireBatch(tenant, name);
  return { status: record.batch.status, ...batchCountsOf(store, tenant, record) };
}

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
    record.batch.completed_at = toIso(tenant.stamp());
    tenant.emit({ kind: 'batch_completed', record });
  } else if (!done && status === 'completed') {
    tenant.shared.batches.setStatus(record, 'in_progress');
    delete record.batch.completed_at;
  }
}

export function prioritizeBatch(tenant: Tenant, name: string, priority: number) {
  requireUsableBatch(tenant, name, 'batchName').batch.priority = priority;
  return { result: 'success' as const };
}

export function setBatchMetadata(tenant: Tenant, name: string, metadata: Record<string, unknown>): Batch {
  const record = requireUsableBatch(tenant, name, 'batchName');
  record.batch.metadata = metadata;
  return record.batch;
}

/** A new task may not join a batch cancelled through v2 (v1 and v2 alike). */
export function assertBatchTakesTasks(record: BatchRecord, field: string): void {
  if (record.hold === 'cancelled') {
    throw invalidParameter(field, `names batch "${record.batch.name}", which is cancelled: it takes no new tasks`);
  }
}
