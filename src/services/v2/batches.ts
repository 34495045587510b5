import type { z } from 'zod';
import { deepMergeMetadata, MetadataSchema } from '../../domain/common/metadata.js';
import type { V2BatchMetadataBodySchema, V2CreateBatchBodySchema } from '../../domain/v2/objects.js';
import { parseOrThrow } from '../../domain/validate.js';
import { selectorsDisagree, wrongState } from '../../errors/index.js';
import { toIso } from '../../runtime/clock.js';
import type { BatchRecord } from '../../store/account.js';
import type { Store } from '../../store/store.js';
import { type Tenant, tenantKey } from '../../store/tenant.js';
import { startBatch } from '../batch-start.js';
import { createBatch, syncBatchStatus } from '../batches.js';
import { releaseHeld } from '../completion.js';
import { cancelTask } from '../tasks.js';
import { type BatchSelector, type ProjectSelector, requireUsableBatch, requireUsableProject } from './lookup.js';
import { batchStatusOf, batchView } from './views.js';

/**
 * v2's batch life cycle on the one batch v1 shows. v2 adds two states v1 has no word for; v1 shows a
 * paused batch as in_progress (its work is not done) and a cancelled one as completed (no work is left):
 *
 *   staging --finalize--> in_progress --pause--> paused --resume--> in_progress
 *   staging | in_progress | paused --cancel--> cancelled (its pending tasks are canceled)
 *
 * A refused move is a 400 naming the batch, its status and the rule.
 */

const view = (tenant: Tenant, record: BatchRecord) => batchView(tenant.shared, record);

export function createBatchV2(tenant: Tenant, body: z.infer<typeof V2CreateBatchBodySchema>) {
  const { project } = requireUsableProject(tenant, projectSelectorOf(tenant, body));
  createBatch(tenant, {
    project: project.name,
    name: body.name,
    ...(body.callback !== undefined && { callback: body.callback }),
    ...(body.metadata !== undefined && { metadata: body.metadata }),
  });
  const record = tenant.shared.batches.get(body.name) as BatchRecord;
  // v2 says where a batch starts: staging when asked, else in progress (v1 decides by the project's kind).
  const status = body.staging_batch ? 'staging' : 'in_progress';
  if (record.batch.status !== status) tenant.shared.batches.setStatus(record, status);
  return view(tenant, record);
}

/** project_id / project_name, or the docs' `project` (an id when one has it, else a name); two that disagree: 400. */
function projectSelectorOf(tenant: Tenant, body: z.infer<typeof V2CreateBatchBodySchema>): ProjectSelector {
  const { project, project_id, project_name } = body;
  if (project === undefined) return { project_id, project_name };
  const byId = tenant.shared.projectWithId(project);
  const named = byId ? { project_id: project } : { project_name: project };
  const given = { project_id, project_name };
  for (const [field, value] of Object.entries(named) as [keyof ProjectSelector, string][]) {
    if (given[field] !== undefined && given[field] !== value) throw selectorsDisagree('project', field, 'differ');
  }
  return { ...given, ...named };
}

function refuse(record: BatchRecord, rule: string): never {
  throw wrongState(`Batch "${record.batch.name}"`, `is ${batchStatusOf(record)}`, rule);
}

export function finalizeBatchV2(tenant: Tenant, selector: BatchSelector) {
  const record = requireUsableBatch(tenant, selector);
  if (batchStatusOf(record) !== 'staging') refuse(record, 'only staging batches can be finalized');
  return startBatch(tenant, record, () => view(tenant, record));
}

export function pauseBatch(tenant: Tenant, selector: BatchSelector) {
  const record = requireUsableBatch(tenant, selector);
  if (batchStatusOf(record) !== 'in_progress') refuse(record, 'only in_progress batches can be paused');
  record.hold = 'paused';
  return { batch: view(tenant, record), message: `Batch "${record.batch.name}" is paused` };
}

/**
 * paused -> in_progress, as the docs say resume answers; the completions the pause held run after the answer is
 * made (the batch may then complete, which the next read shows).
 */
export function resumeBatch(tenant: Tenant, selector: BatchSelector) {
  const record = requireUsableBatch(tenant, selector);
  if (record.hold !== 'paused') refuse(record, 'only paused batches can be resumed');
  delete record.hold;
  const answer = { batch: view(tenant, record), message: `Batch "${record.batch.name}" is resumed` };
  releaseHeld(tenant, record);
  syncBatchStatus(tenant, record);
  return answer;
}

/** Cancels the batch and each of its pending tasks (canceled as v1's cancel does: an event, no callback). */
export function cancelBatch(store: Store, tenant: Tenant, selector: BatchSelector) {
  const record = requireUsableBatch(tenant, selector);
  const status = batchStatusOf(record);
  if (status === 'completed' || status === 'cancelled') {
    refuse(record, 'completed and cancelled batches cannot be cancelled');
  }
  record.hold = 'cancelled';
  delete record.deferred;
  const owner = store.findTenant(tenantKey(tenant.account, record.mode)) ?? tenant;
  const pending = [...owner.tasks.index('batch_status').descending(`${record.batch.name}\u0000pending`, Infinity)];
  for (const seq of pending) {
    const task = owner.tasks.atSeq(seq);
    if (task) cancelTask(owner, task.task.task_id, false);
  }
  tenant.shared.batches.setStatus(record, 'completed');
  record.batch.completed_at ??= toIso(tenant.stamp());
  return { batch: view(tenant, record), message: `Batch "${record.batch.name}" is cancelled` };
}

export function setBatchMetadataV2(tenant: Tenant, body: z.infer<typeof V2BatchMetadataBodySchema>) {
  const record = requireUsableBatch(tenant, body);
  // Merged, the metadata must still fit the limit set metadata has.
  record.batch.metadata = body.merge
    ? parseOrThrow(MetadataSchema, deepMergeMetadata(record.batch.metadata, body.metadata), 'metadata')
    : body.metadata;
  return view(tenant, record);
}
