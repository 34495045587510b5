import { offsetPageFields } from '../domain/common/offset-page.js';
import type { BatchRecord } from '../store/account.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../store/tenant.js';
import { batchCountsOf } from './batch-status.js';

export interface BatchListFilter {
  project?: string;
  status?: string;
  start_time?: number;
  end_time?: number;
  detailed?: boolean;
  limit?: number;
  offset?: number;
}

/**
 * Batches of the account, newest first, paged by limit and offset. The walk starts from the
 * project or status index when one is given, so it covers only candidate batches; counting the
 * total visits each match once (accounts hold few batches compared with tasks).
 */
export function listBatches(store: Store, tenant: Tenant, filter: BatchListFilter) {
  const batches = tenant.shared.batches;
  const limit = filter.limit ?? 100;
  const offset = filter.offset ?? 0;
  const source =
    filter.project !== undefined
      ? batches.byProject.descending(filter.project, Infinity)
      : filter.status !== undefined
        ? batches.byStatus.descending(filter.status, Infinity)
        : allDescending(batches.lastSeq);

  const matches = ({ batch, createdMs }: BatchRecord) =>
    (filter.status === undefined || batch.status === filter.status) &&
    (filter.start_time === undefined || createdMs >= filter.start_time) &&
    (filter.end_time === undefined || createdMs <= filter.end_time);

  const docs = [];
  let total = 0;
  for (const seq of source) {
    const record = batches.atSeq(seq);
    if (!record || !matches(record)) continue;
    total += 1;
    if (total <= offset || docs.length >= limit) continue;
    const detail = filter.detailed ? { tasks: batchCountsOf(store, tenant, record) } : {};
    docs.push({ ...record.batch, ...detail });
  }
  return { docs, ...offsetPageFields(total, limit, offset), total, has_more: offset + docs.length < total };
}

function* allDescending(lastSeq: number): Generator<number> {
  for (let seq = lastSeq; seq >= 1; seq -= 1) yield seq;
}
