import { JsonText } from '../domain/common/json-text.js';
import type { Task, TaskList } from '../domain/tasks/task.js';
import { invalidParameter } from '../errors/index.js';
import type { BytePool } from '../runtime/byte-pool.js';
import { countIntersection } from '../store/seq-index.js';
import {
  type IndexedField,
  type TaskCollection,
  type TaskRecord,
  type TimedField,
  taskJson,
} from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { DEFAULT_PAGE_SIZE, decodeSeqToken, encodeSeqToken, filtersOf, type ListFilters } from './seq-page.js';
import {
  allTasks,
  indexSource,
  type SeqSource,
  skipInSource,
  sourceCount,
  sourceCursor,
  timeRangeSource,
} from './task-list-source.js';

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
  offset?: number;
  next_token?: string;
  limited_response?: boolean;
}

const EQUALITY_FIELDS = [
  'status',
  'type',
  'project',
  'batch',
  'customer_review_status',
  'unique_id',
  'tags',
] as const satisfies readonly IndexedField[];

const TIME_RANGES = [
  { field: 'completed_at', after: 'completed_after', before: 'completed_before' },
  { field: 'updated_at', after: 'updated_after', before: 'updated_before' },
] as const satisfies readonly { field: TimedField; after: keyof TaskListFilter; before: keyof TaskListFilter }[];

interface Candidate {
  /** Tasks the source holds (within the created_at bounds for index lists): the walk's worst case. */
  size: number;
  /** The filter this source satisfies by itself (not checked again per task). */
  covers: string;
  /** Builds the source; a time range is only sorted into a list when it is the one chosen. */
  make: () => SeqSource;
}

/**
 * A time range is sorted into a seq list (size·log size, once per state of the store: every write makes the next
 * page sort again) only when that is cheaper than walking every task newest first and checking its time (about
 * limit·window/size records a page). A range holding most tasks is walked: the busy store's pages cost their size.
 */
const rangeIsWide = (size: number, limit: number, window: number) =>
  (limit * window) / Math.max(size, 1) < size * Math.log2(size + 2);

/**
 * The filters as sources (one per equality filter, one per time range, or every task) and the
 * per-task checks of the ones not driving the walk. The smallest source drives.
 */
function plan(tasks: TaskCollection, filter: TaskListFilter, minSeq: number, maxSeq: number) {
  const equality = EQUALITY_FIELDS.filter((field) => (filter[field]?.length ?? 0) > 0).map((field) => ({
    field,
    values: [...new Set(filter[field] as string[])],
  }));
  const times = TIME_RANGES.filter((r) => filter[r.after] !== undefined || filter[r.before] !== undefined).map((r) => ({
    field: r.field,
    from: (filter[r.after] as number | undefined) ?? -Infinity,
    to: (filter[r.before] as number | undefined) ?? Infinity,
  }));
  const candidates: Candidate[] = [
    ...equality.map(({ field, values }): Candidate => {
      const source = indexSource(
        values.map((v) => tasks.index(field).list(v)),
        field !== 'tags' || values.length === 1,
      );
      return { size: sourceCount(source, minSeq, maxSeq), covers: field, make: () => source };
    }),
    ...times.map(({ field, from, to }): Candidate => {
      const size = tasks.timeIndex(field).sizeBetween(from, to);
      const window = Math.max(0, Math.min(maxSeq, tasks.size) - minSeq + 1);
      return rangeIsWide(size, filter.limit ?? DEFAULT_PAGE_SIZE, window)
        ? { size: window, covers: '', make: () => allTasks(tasks) }
        : { size, covers: field, make: () => timeRangeSource(tasks, field, from, to) };
    }),
  ];
  const driver = candidates.reduce<Candidate | undefined>(
    (best, c) => (best === undefined || c.size < best.size ? c : best),
    undefined,
  );
  const others = equality.filter((e) => e.field !== driver?.covers);
  const timeChecks = times.filter((t) => t.field !== driver?.covers);
  const matches = (record: TaskRecord) =>
    others.every(({ field, values }) => {
      const value = (record.task as Record<string, unknown>)[field];
      return Array.isArray(value)
        ? value.some((v) => values.includes(String(v)))
        : value !== undefined && values.includes(String(value));
    }) &&
    timeChecks.every(({ field, from, to }) => {
      const iso = record.task[field];
      const ms = iso === undefined ? NaN : Date.parse(iso);
      return ms >= from && ms <= to;
    });
  const source = driver ? driver.make() : allTasks(tasks);
  const exact = others.length === 0 && timeChecks.length === 0 && (source.kind === 'all' || source.disjoint);
  return { source, others, timeChecks, matches, exact };
}

/**
 * One page of tasks, newest first, as JSON text. The walk starts from the most selective index among
 * the filters (equality or time range) and is bounded by created_at (a binary search), so a page
 * costs about its own size whether the tenant holds ten tasks or a hundred thousand.
 */
export function listTasks(tenant: Tenant, filter: TaskListFilter, pool?: BytePool): JsonText<TaskList> {
  const tasks = tenant.tasks;
  const { page, hasMore, token, limit, plan: planned, minSeq, maxSeq } = taskPage(tenant, filter, 'tasks');
  const { source, others, timeChecks, matches, exact } = planned;
  const offset = token?.offset ?? filter.offset ?? 0;
  const last = page[page.length - 1];
  const docs = page.map((record) =>
    filter.limited_response ? Buffer.from(JSON.stringify(limitedView(record.task))) : taskJson(record),
  );
  const rest = {
    total: exact
      ? sourceCount(source, minSeq, maxSeq)
      : countMatches(tasks, filter, { source, others, timeChecks, matches }, minSeq, maxSeq),
    limit,
    offset,
    has_more: hasMore,
    next_token:
      hasMore && last
        ? encodeSeqToken('tasks', { seq: last.seq, offset: offset + page.length }, listFilters(filter))
        : null,
  };
  // The bytes JSON.stringify({ docs, ...rest }) gives, with each task's JSON reused (serialized once per revision).
  return JsonText.array('{"docs":[', docs, `],${JSON.stringify(rest).slice(1)}`, pool);
}

/**
 * What a task list's tokens are bound to: every filter that decides which tasks it holds (not the page's size or
 * place, nor the answer's form). A token handed back with other filters is refused (services/seq-page.ts).
 */
export const listFilters = (filter: TaskListFilter): ListFilters => filtersOf(filter);

/**
 * The walk behind every task list (v1's and v2's): one page of records, newest first, whether more
 * follow, and the plan (for v1's total). `list` names the list its tokens belong to.
 */
export function taskPage(tenant: Tenant, filter: TaskListFilter, list: 'tasks' | 'v2_tasks') {
  const tasks = tenant.tasks;
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  if (filter.next_token !== undefined && filter.offset !== undefined) {
    throw invalidParameter(
      'offset',
      'cannot be combined with "next_token" (the token already holds its position); page with one or the other',
    );
  }
  const token = filter.next_token
    ? decodeSeqToken(filter.next_token, 'next_token', list, listFilters(filter))
    : undefined;
  const minSeq = filter.start_time === undefined ? 1 : tasks.firstSeqCreatedFrom(filter.start_time);
  const maxSeq = filter.end_time === undefined ? Infinity : tasks.lastSeqCreatedBy(filter.end_time);
  const { source, others, timeChecks, matches, exact } = plan(tasks, filter, minSeq, maxSeq);

  let from = Math.min(maxSeq, token ? token.seq - 1 : Infinity);
  let skip = token ? 0 : (filter.offset ?? 0);
  // Offset paging (the Node SDK's way): jump straight to the position when every walked task matches.
  const jumped = skip > 0 && exact ? skipInSource(source, from, skip) : undefined;
  if (jumped !== undefined) [from, skip] = [jumped, 0];

  const page: TaskRecord[] = [];
  let hasMore = false;
  const next = sourceCursor(source, from);
  // Most pages check nothing per task: the source is the filter.
  const checks = others.length > 0 || timeChecks.length > 0;
  for (let seq = next(); seq > 0 && seq >= minSeq; seq = next()) {
    const record = tasks.atSeq(seq) as TaskRecord;
    if (checks && !matches(record)) continue;
    if (skip > 0) {
      skip -= 1;
      continue;
    }
    if (page.length === limit) {
      hasMore = true;
      break;
    }
    page.push(record);
  }

  return { page, hasMore, token, limit, plan: { source, others, timeChecks, matches, exact }, minSeq, maxSeq };
}

/**
 * The total of several filters at once: counted once per state of the store (paging through the
 * same filters reuses it), by intersecting sorted index lists when every other filter is one
 * equality value, else by walking the smallest source.
 */
function countMatches(
  tasks: TaskCollection,
  filter: TaskListFilter,
  p: Omit<ReturnType<typeof plan>, 'exact'>,
  minSeq: number,
  maxSeq: number,
): number {
  const { limit: _l, next_token: _t, offset: _o, limited_response: _r, ...criteria } = filter;
  return tasks.cached(`count:${JSON.stringify(criteria)}`, () => {
    const { source } = p;
    const [time, ...moreTimes] = p.timeChecks;
    const everyTask = source.kind === 'all' && minSeq <= 1 && maxSeq >= tasks.size;
    if (everyTask && p.others.length === 0 && time && moreTimes.length === 0) {
      // One time range walked over every task (no created_at bounds): its index counts it.
      return tasks.timeIndex(time.field).countBetween(time.from, time.to);
    }
    if (
      source.kind === 'lists' &&
      source.disjoint &&
      p.timeChecks.length === 0 &&
      p.others.every((o) => o.values.length === 1)
    ) {
      // biome-ignore lint/style/noNonNullAssertion: every other filter has exactly one value (checked above)
      const otherLists = p.others.map((o) => tasks.index(o.field).list(o.values[0]!));
      return source.lists.reduce((n, list) => n + countIntersection(list, otherLists, minSeq, maxSeq), 0);
    }
    let n = 0;
    const next = sourceCursor(source, maxSeq);
    for (let seq = next(); seq > 0 && seq >= minSeq; seq = next()) {
      if (p.matches(tasks.atSeq(seq) as TaskRecord)) n += 1;
    }
    return n;
  });
}

/** `limited_response=true`: only task_id, status, metadata and project (frozen, so shared, not copied). */
function limitedView(task: Task) {
  return {
    task_id: task.task_id,
    status: task.status,
    metadata: task.metadata,
    ...(task.project !== undefined && { project: task.project }),
  };
}
