import { ownBytes } from '../domain/common/json-text.js';
import type { Task } from '../domain/tasks/task.js';
import { annotationsIn } from '../domain/v2/annotations.js';
import type { V2ErrorType } from '../domain/v2/objects.js';
import type { Thread } from '../domain/v2/threads.js';
import { deepFreeze } from './frozen.js';
import { SeqIndex } from './seq-index.js';
import type { TaskLife } from './task-life.js';
import { TimeIndex } from './time-index.js';

/** Internal facts about a task that are not part of its wire object. */
export interface TaskInternal {
  clear_unique_id_on_error?: boolean;
  /** Dependent task definitions set on this (root) task, and whether they were created. */
  dependents?: { defs: ({ type: string } & Record<string, unknown>)[]; require_audit: boolean; created: boolean };
  /** The v2 threads a control-plane completion gave (else v2 synthesizes them); dropped by a redo. */
  threads?: Thread[];
  /**
   * A completed task of a type whose results are delivered as a file (resultsByFile): the file's content (the
   * response as the type's schema has it) and the secret its URL carries. Dropped by a redo.
   */
  result_file?: { token: string; content: Record<string, unknown> };
  /** The kind of error a control-plane failure gave (v2 shows it as errors[].type); kept while the task is in error. */
  error_type?: V2ErrorType;
  /** Completion mode `reads`: how often a client read the task while it was pending (kept in memory only). */
  reads?: number;
  /** What happened to it after its creation (kept in memory only; store/task-life.ts). */
  life?: TaskLife;
}

/** Every annotation id in threads (the ids GET /v2/annotation finds by). */
function* annotationIds(threads: unknown): Generator<string> {
  for (const annotation of annotationsIn(threads)) if (typeof annotation?.id === 'string') yield annotation.id;
}

export interface TaskRecord {
  readonly seq: number;
  /** created_at in ms, kept numeric for range searches. */
  readonly createdMs: number;
  /**
   * The current revision, deep-frozen: handed out as is (no copy per read), since neither a caller
   * nor the store can change it. A change replaces it with a new revision (TaskCollection.update).
   */
  readonly task: Task;
  internal: TaskInternal;
}

/** The fields only the collection writes: a new revision and the JSON of the current one. */
interface StoredRecord extends TaskRecord {
  task: Task;
  /** JSON.stringify(task) as UTF-8, made when first asked and dropped with its revision. */
  json?: Buffer;
}

/** The task's JSON (UTF-8), serialized once per revision: reads of an unchanged task reuse it. */
export function taskJson(record: TaskRecord): Uint8Array {
  const stored = record as StoredRecord;
  if (stored.json === undefined) stored.json = ownBytes(JSON.stringify(stored.task));
  return stored.json;
}

/** The indexed fields; list filters on any of them walk one index instead of every task. */
const INDEXED_FIELDS = [
  'status',
  'type',
  'project',
  'batch',
  'customer_review_status',
  'tags',
  'unique_id',
  'batch_status',
] as const;
export type IndexedField = (typeof INDEXED_FIELDS)[number];

/** The key of the batch_status index: a batch's tasks of one status. */
export const batchStatusKey = (batch: string, status: string) => `${batch}\u0000${status}`;

/** The timestamps that list filters take ranges of (created_at ranges use the seq order itself). */
const TIMED_FIELDS = ['completed_at', 'updated_at'] as const;
export type TimedField = (typeof TIMED_FIELDS)[number];

const timeOf = (task: Task, field: TimedField): number | undefined => {
  const iso = task[field];
  return iso === undefined ? undefined : Date.parse(iso);
};

function indexKeys(task: Task, field: IndexedField): string[] {
  // batch + status together: a batch's counts by status are then one lookup each.
  if (field === 'batch_status') return task.batch === undefined ? [] : [batchStatusKey(task.batch, task.status)];
  const value = (task as Record<string, unknown>)[field];
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * One tenant's tasks: by id, in creation order, and in secondary indexes. Every change to an
 * indexed field goes through `update`, which keeps the indexes in step.
 */
export class TaskCollection {
  private readonly byId = new Map<string, TaskRecord>();
  /** All records in seq order; created_at never decreases along it (see Tenant.stamp). */
  private readonly ordered: TaskRecord[] = [];
  private readonly indexes = new Map<IndexedField, SeqIndex>(INDEXED_FIELDS.map((f) => [f, new SeqIndex()]));
  private readonly timeIndexes = new Map<TimedField, TimeIndex>(TIMED_FIELDS.map((f) => [f, new TimeIndex()]));
  private nextSeq = 1;
  /** The task whose stored threads hold each annotation id (GET /v2/annotation). */
  private readonly annotationOwners = new Map<string, string>();
  /** Told of every new or changed record (the --data-dir journal listens); unset when state lives in memory only. */
  onChange: ((record: TaskRecord) => void) | undefined = undefined;
  /** Results that needed a walk or a sort (counts, seq lists), valid until the next change: paging reuses them. */
  private readonly derived = new Map<string, unknown>();

  get size(): number {
    return this.ordered.length;
  }

  get(taskId: string): TaskRecord | undefined {
    return this.byId.get(taskId);
  }

  /** Seqs are dense from 1 (records are never removed), so a seq is an array position. */
  atSeq(seq: number): TaskRecord | undefined {
    return this.ordered[seq - 1];
  }

  insert(task: Task, createdMs: number, internal: TaskInternal = {}): TaskRecord {
    this.changed();
    const record: StoredRecord = { seq: this.nextSeq++, createdMs, task: deepFreeze(task), internal };
    this.byId.set(task.task_id, record);
    this.ordered.push(record);
    for (const field of INDEXED_FIELDS)
      for (const key of indexKeys(task, field)) this.index(field).add(key, record.seq);
    for (const field of TIMED_FIELDS) this.timeIndex(field).move(record.seq, undefined, timeOf(task, field));
    this.indexAnnotations(record, internal.threads);
    this.onChange?.(record);
    return record;
  }

  /** Sets or drops the v2 threads a completion gave; the caller's update that follows tells the journal. */
  setThreads(record: TaskRecord, threads: Thread[] | undefined): void {
    for (const id of annotationIds(record.internal.threads)) this.annotationOwners.delete(id);
    if (threads === undefined) delete record.internal.threads;
    else record.internal.threads = threads;
    this.indexAnnotations(record, threads);
  }

  /** The task whose stored threads hold an annotation. */
  annotationOwner(annotationId: string): TaskRecord | undefined {
    const taskId = this.annotationOwners.get(annotationId);
    return taskId === undefined ? undefined : this.byId.get(taskId);
  }

  private indexAnnotations(record: TaskRecord, threads: Thread[] | undefined): void {
    for (const id of annotationIds(threads)) this.annotationOwners.set(id, record.task.task_id);
  }

  /**
   * Applies `change` to a shallow copy of the task, stores the copy (frozen) as the new revision and
   * re-indexes the fields it touched. Revisions handed out before stay as they were.
   */
  update(record: TaskRecord, change: (task: Task) => void): TaskRecord {
    this.changed();
    const before = INDEXED_FIELDS.map((field) => indexKeys(record.task, field));
    const timesBefore = TIMED_FIELDS.map((field) => timeOf(record.task, field));
    // A shallow copy: nested values stay frozen and shared between revisions (a revision a callback
    // delivery keeps costs one object, not a copy of a large instruction), so `change` replaces a
    // nested value, never edits it (an edit throws).
    const next = { ...record.task };
    change(next);
    const stored = record as StoredRecord;
    stored.task = deepFreeze(next);
    stored.json = undefined;
    TIMED_FIELDS.forEach((field, i) => {
      this.timeIndex(field).move(record.seq, timesBefore[i], timeOf(record.task, field));
    });
    INDEXED_FIELDS.forEach((field, i) => {
      const after = indexKeys(record.task, field);
      // biome-ignore lint/style/noNonNullAssertion: before maps INDEXED_FIELDS one to one
      const was = before[i]!;
      for (const key of was) if (!after.includes(key)) this.index(field).remove(key, record.seq);
      for (const key of after) if (!was.includes(key)) this.index(field).add(key, record.seq);
    });
    this.onChange?.(record);
    return record;
  }

  /** A change to a record's internal facts alone (no new revision): only the journal needs to know. */
  internalChanged(record: TaskRecord): void {
    this.onChange?.(record);
  }

  /** A value for `key`, computed only when nothing changed since it was last asked (bounded: at most 1000 kept). */
  cached<T>(key: string, compute: () => T): T {
    if (this.derived.has(key)) return this.derived.get(key) as T;
    const value = compute();
    if (this.derived.size >= 1000) this.derived.clear();
    this.derived.set(key, value);
    return value;
  }

  private changed(): void {
    if (this.derived.size > 0) this.derived.clear();
  }

  index(field: IndexedField): SeqIndex {
    return this.indexes.get(field) as SeqIndex;
  }

  timeIndex(field: TimedField): TimeIndex {
    return this.timeIndexes.get(field) as TimeIndex;
  }

  /** Highest seq whose created_at is <= ms (0 when none). O(log n). */
  lastSeqCreatedBy(ms: number): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= length
      if (this.ordered[mid]!.createdMs <= ms) lo = mid + 1;
      else hi = mid;
    }
    return this.ordered[lo - 1]?.seq ?? 0;
  }

  /** Lowest seq whose created_at is >= ms (Infinity when none). O(log n). */
  firstSeqCreatedFrom(ms: number): number {
    let lo = 0;
    let hi = this.ordered.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // biome-ignore lint/style/noNonNullAssertion: lo <= mid < hi <= length
      if (this.ordered[mid]!.createdMs < ms) lo = mid + 1;
      else hi = mid;
    }
    return this.ordered[lo]?.seq ?? Infinity;
  }

  /** Number of records with seq in [minSeq, maxSeq]. Records are never removed, so seqs are dense from 1. */
  countSeqBetween(minSeq: number, maxSeq: number): number {
    return Math.max(0, Math.min(maxSeq, this.nextSeq - 1) - Math.max(minSeq, 1) + 1);
  }

  all(): TaskRecord[] {
    return [...this.ordered];
  }
}
