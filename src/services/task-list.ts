import { invalid } from '../errors.js';
import type { Task } from '../domain/tasks/task.js';
import { countIntersection, mergeDescending } from '../store/seq-index.js';
import type { IndexedField, TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { DEFAULT_PAGE_SIZE } from './seq-page.js';
import { viewTask } from './tasks.js';

export interface TaskListFilter {
  status?: string[];
  type?: string[];
  project?: string[];
  batch?: string[];
  customer_review_status?: string[];
  unique_id?: string[];
  tags?: string[];
  start_time?: number;
  end_time?: number;
  completed_after?: number;
  completed_before?: number;
  updated_after?: number;
  updated_before?: number;
  limit?: number;
  next_token?: string;
  limited_response?: boolean;
}

interface PageToken {
  /** Seq of the last task returned; the next page starts below it. */
  seq: number;
  offset: number;
}

const encodeToken = (token: PageToken) => Buffer.from(JSON.stringify(token)).toString('base64url');

function decodeToken(text: string): PageToken {
  try {
    const token = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as PageToken;
    if (Number.isInteger(token.seq) && Number.isInteger(token.offset) && token.seq >= 0 && token.offset >= 0) return token;
  } catch {
    // fall through to the error below
  }
  throw invalid('Parameter is invalid, reason: "next_token" is not a token returned by this server');
}

const EQUALITY_FIELDS = ['status', 'type', 'project', 'batch', 'customer_review_status', 'unique_id', 'tags'] as const satisfies readonly IndexedField[];

type TimeCheck = (task: Task) => boolean;

function timeChecks(filter: TaskListFilter): TimeCheck[] {
  const checks: TimeCheck[] = [];
  const at = (iso: string | undefined) => (iso === undefined ? undefined : Date.parse(iso));
  const range = (field: 'completed_at' | 'updated_at', after?: number, before?: number) => {
    if (after === undefined && before === undefined) return;
    checks.push((task) => {
      const ms = at(task[field]);
      return ms !== undefined && (after === undefined || ms >= after) && (before === undefined || ms <= before);
    });
  };
  range('completed_at', filter.completed_after, filter.completed_before);
  range('updated_at', filter.updated_after, filter.updated_before);
  return checks;
}

/**
 * One page of tasks, newest first. The walk starts from the most selective index among the
 * equality filters and is bounded by created_at (a binary search), so a page costs about its own
 * size whether the tenant holds ten tasks or a hundred thousand.
 */
export function listTasks(tenant: Tenant, filter: TaskListFilter) {
  const tasks = tenant.tasks;
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  const token = filter.next_token ? decodeToken(filter.next_token) : undefined;
  const minSeq = filter.start_time === undefined ? 1 : tasks.firstSeqCreatedFrom(filter.start_time);
  const maxSeq = filter.end_time === undefined ? Infinity : tasks.lastSeqCreatedBy(filter.end_time);

  const equality = EQUALITY_FIELDS.filter((field) => filter[field] !== undefined && filter[field]!.length > 0).map((field) => {
    const values = [...new Set(filter[field] as string[])];
    return { field, values, size: values.reduce((n, v) => n + tasks.index(field).countBetween(v, minSeq, maxSeq), 0) };
  });
  equality.sort((a, b) => a.size - b.size);
  const [driver, ...others] = equality;
  const checks = timeChecks(filter);

  const matches = (record: TaskRecord) =>
    others.every(({ field, values }) => {
      const value = (record.task as Record<string, unknown>)[field];
      return Array.isArray(value) ? value.some((v) => values.includes(String(v))) : value !== undefined && values.includes(String(value));
    }) && checks.every((check) => check(record.task));

  const walk = function* (from: number) {
    const seqs = driver
      ? mergeDescending(driver.values.map((v) => tasks.index(driver.field).descending(v, from)))
      : tasks.descending(from);
    for (const seq of seqs) {
      if (seq < minSeq) return;
      const record = tasks.atSeq(seq) as TaskRecord;
      if (matches(record)) yield record;
    }
  };

  const page: TaskRecord[] = [];
  let hasMore = false;
  for (const record of walk(Math.min(maxSeq, token ? token.seq - 1 : Infinity))) {
    if (page.length === limit) {
      hasMore = true;
      break;
    }
    page.push(record);
  }

  // Index sizes add up exactly unless one task can sit under several of the values (tags).
  const multiValued = driver?.field === 'tags' && driver.values.length > 1;
  const exactFromIndexes = others.length === 0 && checks.length === 0 && !multiValued;
  let total: number;
  if (exactFromIndexes) total = driver ? driver.size : tasks.countSeqBetween(minSeq, maxSeq);
  else {
    // Several filters at once: count by walking the most selective index, once per state of the
    // store (paging through the same filters reuses the count).
    const { limit: _l, next_token: _t, limited_response: _r, ...criteria } = filter;
    total = tasks.cachedCount(JSON.stringify(criteria), () => {
      let n = 0;
      const singleValuedOthers = checks.length === 0 && others.every((other) => other.values.length === 1);
      if (driver && !multiValued && singleValuedOthers) {
        // Equality filters only: intersect the sorted index lists (the driver's values are disjoint).
        const otherLists = others.map((other) => tasks.index(other.field).list(other.values[0]));
        for (const value of driver.values) n += countIntersection(tasks.index(driver.field).list(value), otherLists, minSeq, maxSeq);
      } else if (driver && !multiValued) {
        // The driver's values are disjoint (one value per task): a tight loop over each index list.
        const index = tasks.index(driver.field);
        for (const value of driver.values) index.forEachBetween(value, minSeq, maxSeq, (seq) => void (matches(tasks.atSeq(seq) as TaskRecord) && n++));
      } else for (const _ of walk(maxSeq)) n += 1;
      return n;
    });
  }

  const offset = token?.offset ?? 0;
  const last = page[page.length - 1];
  return {
    docs: page.map((record) => (filter.limited_response ? limitedView(record.task) : viewTask(record))),
    total,
    limit,
    offset,
    has_more: hasMore,
    next_token: hasMore && last ? encodeToken({ seq: last.seq, offset: offset + page.length }) : null,
  };
}

/** `limited_response=true`: only task_id, status, metadata and project. */
function limitedView(task: Task) {
  return {
    task_id: task.task_id,
    status: task.status,
    metadata: structuredClone(task.metadata),
    ...(task.project !== undefined && { project: task.project }),
  };
}
