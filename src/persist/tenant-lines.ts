import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { FileObject } from '../domain/files/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { State } from '../domain/state/schema.js';
import { ownedProjectsAndBatches, stateTail } from '../services/tenant-state.js';
import type { IdempotencyEntry } from '../store/idempotency-store.js';
import { type TaskRecord, taskJson } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import type { V2CatalogState } from '../store/v2-catalog.js';

/**
 * One line of the data directory's journal or snapshot: what changed in one tenant (a delta), or the
 * tenant's whole state (`full`: a snapshot, a reset, an import). Recovery applies the lines in order;
 * each entity is written whole, so applying a line twice, or an older one before a newer, ends the same.
 */
export interface TenantLine {
  /** The tenant's key (`test:<account>` or `live:<account>`). */
  t: string;
  /** The tenant's state is exactly this line: what earlier lines said of it is dropped. */
  full?: true;
  /** All but tasks, files, jobs, the callback journal, the v2 catalog and idempotency records; when it changed. */
  meta?: TenantMeta;
  /**
   * v2 catalog records added since the last line (on a full line: the whole catalog). Records are never changed
   * once added, so each is written once, however large the catalog grows. (Lines written before this carried the
   * whole catalog in `meta.v2`; recovery still reads them.)
   */
  v2?: Partial<V2CatalogState>;
  tasks?: State['tasks'];
  files?: LineFile[];
  jobs?: ScheduledJob[];
  /** Jobs taken to run (by jobKey). */
  jobs_done?: string[];
  /**
   * Deliveries as they stand. One an earlier line already carried comes without its body (a retry changes only
   * its attempts and state): recovery keeps the body it has.
   */
  callbacks?: (CallbackDelivery | DeliveryProgress)[];
  /** Deliveries the bounded callback journal let go (by id). */
  callbacks_dropped?: string[];
  idempotency?: [string, IdempotencyEntry][];
}

export type DeliveryProgress = Omit<CallbackDelivery, 'body'>;

export type TenantMeta = Omit<State, 'format' | 'tasks' | 'files' | 'callbacks' | 'scheduled_jobs'>;

/** A file record: its bytes live in the data directory's blobs/, under `blob` (null: imported by URL). */
export interface LineFile {
  file: FileObject;
  blob: string | null;
}

/** A job's identity: what says "this job ran" in a later line. */
export const jobKey = (job: ScheduledJob): string =>
  job.kind === 'complete_task'
    ? `complete_task ${job.task_id} ${job.due_at}`
    : `deliver_callback ${job.delivery_id} ${job.attempt} ${job.due_at}`;

export function tenantMeta(tenant: Tenant): TenantMeta {
  return { ...tenantMetaBesides(tenant), ...ownedProjectsAndBatches(tenant) };
}

/** The meta but the account's projects and batches (the journal writes those only when they changed). */
export function tenantMetaBesides(tenant: Tenant): Omit<TenantMeta, 'projects' | 'batches'> {
  return { clock_offset_ms: tenant.clockOffsetMs, settings: structuredClone(tenant.settings), ...stateTail(tenant) };
}

/** A task as a journal entry, from the JSON its reads already reuse: a task is serialized once per revision. */
function taskEntryText(record: TaskRecord): string {
  const { clear_unique_id_on_error: clear, error_type: errorType, result_file, dependents, threads } = record.internal;
  const task = Buffer.from(taskJson(record)).toString('utf8');
  const extra =
    (clear === undefined ? '' : `,"clear_unique_id_on_error":${clear}`) +
    (errorType === undefined ? '' : `,"error_type":${JSON.stringify(errorType)}`) +
    (result_file ? `,"result_file":${JSON.stringify(result_file)}` : '') +
    (dependents ? `,"dependent_options":${JSON.stringify(dependents)}` : '') +
    (threads ? `,"threads":${JSON.stringify(threads)}` : '');
  return `{"task":${task}${extra}}`;
}

/**
 * The JSON text of a line. The meta (already serialized to see whether it changed) and the tasks (whose
 * JSON each record keeps) are spliced in as text; the rest goes through JSON.stringify.
 */
export function lineText(
  line: Omit<TenantLine, 'tasks' | 'meta'>,
  metaText: string | undefined,
  tasks: Iterable<TaskRecord>,
): string {
  let text = JSON.stringify(line);
  if (metaText !== undefined) text = `${text.slice(0, -1)},"meta":${metaText}}`;
  const entries: string[] = [];
  for (const record of tasks) entries.push(taskEntryText(record));
  if (entries.length === 0) return text;
  return `${text.slice(0, -1)},"tasks":[${entries.join(',')}]}`;
}
