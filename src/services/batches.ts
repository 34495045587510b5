import type { z } from 'zod';
import type { Batch, CreateBatchBodySchema } from '../domain/batches/schemas.js';
import { deepMergeMetadata, MetadataSchema } from '../domain/common/metadata.js';
import { parseOrThrow } from '../domain/validate.js';
import { alreadyExists, invalidParameter } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { type BatchRecord, batchOf } from '../store/account.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../store/tenant.js';
import { requireNamed, requireUsable } from './account-objects.js';
import { moveBatch } from './batch-life-cycle.js';
import { batchCountsOf } from './batch-status.js';
import { requireUsableProject } from './projects.js';

export const requireBatch = (tenant: Tenant, name: string) => requireNamed(tenant, 'batch', name);
export const requireUsableBatch = (tenant: Tenant, name: string, field = 'batch') =>
  requireUsable(tenant, 'batch', name, field);

/**
 * Makes a batch of a project the caller may use. Where it starts (life-cycle.ts) is v1's rule unless the face
 * says: a rapid or Studio project's batch waits in staging, any other starts in progress; v2 asks by
 * staging_batch.
 */
export function createBatch(
  tenant: Tenant,
  body: z.infer<typeof CreateBatchBodySchema>,
  startIn?: 'staging' | 'in_progress',
): Batch {
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
    status: startIn ?? (project.rapid || project.studio ? 'staging' : 'in_progress'),
    created_at: toIso(createdMs),
    metadata: body.metadata ?? {},
    ...(body.callback && { callback: body.callback }),
    ...(body.calibration_batch !== undefined && { calibration_batch: body.calibration_batch }),
    ...(body.self_label_batch !== undefined && { self_label_batch: body.self_label_batch }),
  };
  tenant.shared.batches.insert(batch, tenant.mode, createdMs);
  return batch;
}

/** `POST /v1/batches/{name}/finalize`: a staging batch starts; any other is answered as it is. */
export function finalizeBatch(store: Store, tenant: Tenant, name: string): Promise<Batch> {
  const record = requireUsableBatch(tenant, name, 'batchName');
  return moveBatch(store, tenant, record, 'finalize', () => structuredClone(batchOf(record)), 'answer-as-is');
}

/** `GET /v1/batches/{name}/status`. */
export function batchStatus(store: Store, tenant: Tenant, name: string) {
  const record = requireBatch(tenant, name);
  return { status: record.batch.status, ...batchCountsOf(store, tenant, record) };
}

export function prioritizeBatch(tenant: Tenant, name: string, priority: number) {
  tenant.shared.changeBatch(requireUsableBatch(tenant, name, 'batchName'), ({ batch }) => {
    batch.priority = priority;
  });
  return { result: 'success' as const };
}

/** v1's setMetadata replaces; v2's may merge. Merged, the metadata must still fit the limit set metadata has. */
export function writeBatchMetadata(
  tenant: Tenant,
  record: BatchRecord,
  metadata: Record<string, unknown>,
  merge = false,
): void {
  const next = merge
    ? parseOrThrow(MetadataSchema, deepMergeMetadata(record.batch.metadata, metadata), 'metadata')
    : metadata;
  tenant.shared.changeBatch(record, ({ batch }) => {
    batch.metadata = next;
  });
}

export function setBatchMetadata(tenant: Tenant, name: string, metadata: Record<string, unknown>): Batch {
  const record = requireUsableBatch(tenant, name, 'batchName');
  writeBatchMetadata(tenant, record, metadata);
  return record.batch;
}

/** A new task may not join a batch cancelled through v2 (v1 and v2 alike). */
export function assertBatchTakesTasks(record: BatchRecord, field: string): void {
  if (record.hold === 'cancelled') {
    throw invalidParameter(field, `names batch "${record.batch.name}", which is cancelled: it takes no new tasks`);
  }
}
