import type { z } from 'zod';
import type { V2BatchMetadataBodySchema, V2CreateBatchBodySchema } from '../../domain/v2/objects.js';
import { selectorsDisagree } from '../../errors/index.js';
import type { BatchRecord } from '../../store/account.js';
import type { Store } from '../../store/store.js';
import type { Tenant } from '../../store/tenant.js';
import { moveBatch } from '../batch-life-cycle.js';
import { createBatch, writeBatchMetadata } from '../batches.js';
import {
  type BatchSelector,
  type ProjectSelector,
  projectSelectorFor,
  requireUsableBatchBy,
  requireUsableProjectBy,
} from './lookup.js';
import { batchView } from './views.js';

/**
 * v2's batch operations: the one life cycle (domain/batches/life-cycle.ts, carried out by
 * services/batch-life-cycle.ts) on the one batch v1 shows, named by id or name. A refused move is a 400 naming
 * the batch, its state and the rule.
 */

const view = (tenant: Tenant, record: BatchRecord) => batchView(tenant.shared, record);

export function createBatchV2(tenant: Tenant, body: z.infer<typeof V2CreateBatchBodySchema>) {
  const { project } = requireUsableProjectBy(tenant, projectSelectorOf(tenant, body));
  // v2 says where a batch starts: staging when asked, else in progress (v1 decides by the project's kind).
  const startIn = body.staging_batch ? 'staging' : 'in_progress';
  const batch = {
    project: project.name,
    name: body.name,
    ...(body.callback !== undefined && { callback: body.callback }),
    ...(body.metadata !== undefined && { metadata: body.metadata }),
  };
  createBatch(tenant, batch, startIn);
  return view(tenant, tenant.shared.batches.get(body.name) as BatchRecord);
}

/** project_id / project_name, or the docs' `project` (an id when one has it, else a name); two that disagree: 400. */
function projectSelectorOf(tenant: Tenant, body: z.infer<typeof V2CreateBatchBodySchema>): ProjectSelector {
  const { project, project_id, project_name } = body;
  if (project === undefined) return { project_id, project_name };
  const named = projectSelectorFor(tenant, project);
  const given = { project_id, project_name };
  for (const [field, value] of Object.entries(named) as [keyof ProjectSelector, string][]) {
    if (given[field] !== undefined && given[field] !== value) throw selectorsDisagree('project', field, 'differ');
  }
  return { ...given, ...named };
}

const message = (record: BatchRecord, done: string) => `Batch "${record.batch.name}" is ${done}`;

export function finalizeBatchV2(store: Store, tenant: Tenant, selector: BatchSelector) {
  const record = requireUsableBatchBy(tenant, selector);
  return moveBatch(store, tenant, record, 'finalize', () => view(tenant, record), 'refuse');
}

/** pause, resume and cancel answer the batch and a sentence. */
export function operateBatch(store: Store, tenant: Tenant, selector: BatchSelector, move: BatchOperation) {
  const record = requireUsableBatchBy(tenant, selector);
  const answer = () => ({ batch: view(tenant, record), message: message(record, OPERATION_DONE[move]) });
  return moveBatch(store, tenant, record, move, answer, 'refuse');
}

type BatchOperation = 'pause' | 'resume' | 'cancel';
const OPERATION_DONE: Record<BatchOperation, string> = { pause: 'paused', resume: 'resumed', cancel: 'cancelled' };

export function setBatchMetadataV2(tenant: Tenant, body: z.infer<typeof V2BatchMetadataBodySchema>) {
  const record = requireUsableBatchBy(tenant, body);
  writeBatchMetadata(tenant, record, body.metadata, body.merge);
  return view(tenant, record);
}
