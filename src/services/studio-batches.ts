import { isEmail } from '../domain/common/values.js';
import type { StudioBatch } from '../domain/studio/schemas.js';
import { invalidParameter, referenceNotFound } from '../errors/index.js';
import type { IdGenerator } from '../runtime/ids.js';
import { derivedId } from '../runtime/ids.js';
import type { BatchRecord } from '../store/account.js';
import type { Tenant } from '../store/tenant.js';
import { batchCounts } from './batch-status.js';
import { requireUsableBatch } from './batches.js';
import { singletonGroup } from './studio-groups.js';

const isStudioBatch = (tenant: Tenant, record: BatchRecord) =>
  tenant.owns(record) && tenant.shared.projects.get(record.batch.project)?.project.studio === true;

/** Default order: calibration batches first, then by creation. */
const defaultOrder = (a: BatchRecord, b: BatchRecord) =>
  Number(Boolean(b.batch.calibration_batch)) - Number(Boolean(a.batch.calibration_batch)) || a.seq - b.seq;

/**
 * The tenant's pending Studio batches (not completed: staging or in progress), highest priority
 * first. Read from the batch status index, so completed batches are never walked.
 */
function pendingStudioBatches(tenant: Tenant): BatchRecord[] {
  const batches = tenant.shared.batches;
  const seqs = [...batches.byStatus.list('staging'), ...batches.byStatus.list('in_progress')];
  const pending = seqs
    .map((seq) => batches.atSeq(seq))
    .filter((r): r is BatchRecord => r !== undefined && isStudioBatch(tenant, r));
  pending.sort(defaultOrder);
  const order = tenant.studio.priorityOrder;
  if (!order) return pending;
  const rank = new Map(order.map((name, index) => [name, index]));
  const rankOf = (r: BatchRecord) => rank.get(r.batch.name) ?? Number.MAX_SAFE_INTEGER;
  // Stable sort: batches created after set_priorities keep the default order, after the ranked ones.
  return pending.sort((a, b) => rankOf(a) - rankOf(b));
}

function viewStudioBatch(tenant: Tenant, record: BatchRecord, priority: number): StudioBatch {
  const counts = batchCounts(tenant, record);
  const { name, project } = record.batch;
  return {
    id: derivedId('batch', tenant.account, name),
    name,
    projectId: derivedId('project', tenant.account, project),
    projectName: project,
    batchType: record.batch.calibration_batch ? 'Calibration' : 'Production',
    studioPriority: priority,
    total: counts.pending + counts.completed + counts.error + counts.canceled,
    completed: counts.completed,
    groups: tenant.studio.batchGroups.get(name)?.groups ?? [],
  };
}

export function listStudioBatches(tenant: Tenant): StudioBatch[] {
  return pendingStudioBatches(tenant).map((record, index) => viewStudioBatch(tenant, record, index + 1));
}

/** A pending batch of a Studio project, by name. */
function requirePendingStudioBatch(tenant: Tenant, name: string, field: string): BatchRecord {
  const record = requireUsableBatch(tenant, name, field);
  if (!isStudioBatch(tenant, record)) {
    throw invalidParameter(
      field,
      `names batch "${name}" of project "${record.batch.project}", which is not a Studio project`,
    );
  }
  if (record.batch.status === 'completed')
    throw invalidParameter(field, `names batch "${name}", which is completed; only pending batches can be changed`);
  return record;
}

/** Replaces the batch's groups. A member's e-mail stands for that member's group of one. */
export function setBatchGroups(tenant: Tenant, ids: IdGenerator, batchName: string, names: string[]): StudioBatch {
  const record = requirePendingStudioBatch(tenant, batchName, 'batch');
  const project = record.batch.project;
  const groups = names.map((name, index) => {
    const field = `groups[${index}]`;
    if (tenant.studio.groupsOf(project).has(name)) return name;
    if (isEmail(name)) return singletonGroup(tenant, ids, project, name, field).name;
    throw referenceNotFound(
      'Labeler group',
      field,
      `"${name}" is not a group of project "${project}" (nor a teammate's e-mail)`,
    );
  });
  tenant.studio.batchGroups.set(batchName, { project, groups: [...new Set(groups)] });
  const priority = pendingStudioBatches(tenant).indexOf(record) + 1;
  return viewStudioBatch(tenant, record, priority);
}

/** The new order must name every pending Studio batch exactly once. */
export function setBatchPriorities(tenant: Tenant, names: string[]): StudioBatch[] {
  const seen = new Set<string>();
  names.forEach((name, index) => {
    const field = `batches[${index}].name`;
    if (seen.has(name)) throw invalidParameter(field, `repeats batch "${name}"`);
    seen.add(name);
    if (!tenant.shared.batches.get(name)) throw referenceNotFound('Batch', field, `"${name}"`);
    requirePendingStudioBatch(tenant, name, field);
  });
  const missing = pendingStudioBatches(tenant).filter((r) => !seen.has(r.batch.name));
  if (missing.length > 0) {
    const shown = missing
      .slice(0, 10)
      .map((r) => `"${r.batch.name}"`)
      .join(', ');
    const more = missing.length > 10 ? ', ...' : '';
    throw invalidParameter(
      'batches',
      `must list every pending Studio batch; missing ${missing.length}: ${shown}${more}`,
    );
  }
  tenant.studio.priorityOrder = names;
  return listStudioBatches(tenant);
}

export function resetBatchPriorities(tenant: Tenant): StudioBatch[] {
  tenant.studio.priorityOrder = undefined;
  return listStudioBatches(tenant);
}
