import { batchStateOf } from '../../domain/batches/life-cycle.js';
import type { V2BatchStatus } from '../../domain/v2/objects.js';
import type { BatchRecord } from '../../store/account.js';
import type { Tenant } from '../../store/tenant.js';
import { filtersOf, pageStart, takePage } from '../seq-page.js';
import { findProjectBy, type ProjectSelector, withinRange } from './lookup.js';
import { batchView } from './views.js';

export interface BatchListQuery extends ProjectSelector {
  status?: V2BatchStatus | undefined;
  created_after?: number | undefined;
  created_before?: number | undefined;
  completed_after?: number | undefined;
  completed_before?: number | undefined;
  limit?: number | undefined;
  next_token?: string | undefined;
  expand?: 'project'[] | undefined;
}

function* descending(from: number): Generator<number> {
  for (let seq = from; seq >= 1; seq -= 1) yield seq;
}

/**
 * `GET /v2/batches`: the account's batches, newest first, paged by next_token (the seq of the last one
 * a page held). A project narrows the walk to its index; the other filters are checked per batch.
 */
export function listBatchesV2(tenant: Tenant, query: BatchListQuery) {
  const batches = tenant.shared.batches;
  const project = findProjectBy(tenant, query);
  const start = pageStart('v2_batches', query.next_token, batches.lastSeq, 'next_token', filtersOf(query));
  const seqs = project ? batches.byProject.descending(project.project.name, start) : descending(start);
  const accept = (record: BatchRecord) =>
    (query.status === undefined || batchStateOf(record) === query.status) &&
    withinRange(record.batch.created_at, query.created_after, query.created_before) &&
    withinRange(record.batch.completed_at, query.completed_after, query.completed_before);
  const limit = query.limit ?? 100;
  const { records, next } = takePage('v2_batches', seqs, limit, (seq) => batches.atSeq(seq), accept, filtersOf(query));
  const expand = query.expand?.includes('project') ?? false;
  return {
    batches: records.map((record) => batchView(tenant.shared, record, expand)),
    ...(next !== null && { next_token: next }),
  };
}
