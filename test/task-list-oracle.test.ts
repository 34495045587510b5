import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Task } from '../src/domain/tasks/task.js';
import { ManualClock } from '../src/runtime/clock.js';
import { listTasks, type TaskListFilter } from '../src/services/task-list.js';
import { Store } from '../src/store/store.js';

/**
 * The list planner (index choice, intersections, time ranges, offset jumps, cached counts, tokens) against an
 * oracle: a naive filter, sort and slice over every task, on random stores and random queries.
 */

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const iso = (ms: number) => new Date(T0 + ms).toISOString();
const STATUSES = ['pending', 'completed', 'canceled', 'error'] as const;
const REVIEWS = ['pending', 'accepted', 'fixed', 'rejected'] as const;

const taskArb = fc.record({
  status: fc.constantFrom(...STATUSES),
  type: fc.constantFrom('imageannotation', 'categorization', 'textcollection'),
  project: fc.option(fc.constantFrom('p1', 'p2'), { nil: undefined }),
  batch: fc.option(fc.constantFrom('b1', 'b2'), { nil: undefined }),
  customer_review_status: fc.constantFrom(...REVIEWS),
  tags: fc.option(fc.uniqueArray(fc.constantFrom('x', 'y', 'z'), { maxLength: 3 }), { nil: undefined }),
  unique_id: fc.option(fc.constantFrom('u1', 'u2', 'u3'), { nil: undefined }),
  gap: fc.nat(3),
  completedAfter: fc.nat(20),
  updatedAfter: fc.nat(20),
});
type Drawn = fc.Arbitrary<typeof taskArb extends fc.Arbitrary<infer T> ? T : never>;

/** Present one time in four: a query names a few filters, and most pages then hold several tasks. */
const sometimes = <T>(arb: fc.Arbitrary<T>) =>
  fc.tuple(fc.nat(3), arb).map(([draw, value]) => (draw === 0 ? value : undefined));
const some = <T>(arb: fc.Arbitrary<T>) => sometimes(fc.uniqueArray(arb, { minLength: 1, maxLength: 2 }));
const time = sometimes(fc.integer({ min: 0, max: 200 }));
const filterArb = fc.record({
  status: some(fc.constantFrom(...STATUSES)),
  type: some(fc.constantFrom('imageannotation', 'categorization')),
  project: some(fc.constantFrom('p1', 'p2')),
  batch: some(fc.constantFrom('b1', 'b2')),
  customer_review_status: some(fc.constantFrom(...REVIEWS)),
  tags: some(fc.constantFrom('x', 'y', 'z')),
  unique_id: some(fc.constantFrom('u1', 'u2')),
  start_time: time,
  end_time: time,
  completed_after: time,
  completed_before: time,
  updated_after: time,
  updated_before: time,
});

/** A store holding `drawn` tasks in creation order (created_at never decreases), each an exact Task. */
function storeOf(drawn: Drawn extends fc.Arbitrary<infer T> ? T[] : never) {
  const tenant = new Store(new ManualClock(T0), { mode: 'manual', delay_ms: 0 }).tenant('acme', 'test');
  let created = 0;
  drawn.forEach((d, i) => {
    created += d.gap;
    const unique = d.unique_id === undefined || drawn.slice(0, i).some((o) => o.unique_id === d.unique_id);
    const task = {
      task_id: `t${String(i).padStart(23, '0')}`,
      type: d.type,
      status: d.status,
      params: {},
      created_at: iso(created),
      updated_at: iso(created + d.updatedAfter),
      ...(d.status === 'completed' && { completed_at: iso(created + d.completedAfter) }),
      callback_succeeded: false,
      callback_completed: false,
      customer_review_status: d.customer_review_status,
      metadata: {},
      project_param_version: null,
      ...(d.project && { project: d.project }),
      ...(d.batch && { batch: d.batch }),
      ...(d.tags && { tags: d.tags }),
      ...(!unique && { unique_id: d.unique_id }),
      audits: [],
      is_test: true,
      urgency: 'standard',
      work_started: false,
    } as Task;
    tenant.tasks.insert(task, T0 + created);
  });
  return tenant;
}

/** The oracle: every task, newest first, kept when each filter holds. */
function naive(tasks: Task[], f: TaskListFilter): string[] {
  const within = (value: string | undefined, from?: number, to?: number) => {
    if (from === undefined && to === undefined) return true;
    if (value === undefined) return false;
    const ms = Date.parse(value);
    return ms >= (from ?? -Infinity) && ms <= (to ?? Infinity);
  };
  const equal = (value: unknown, wanted?: string[]) =>
    wanted === undefined ||
    (Array.isArray(value)
      ? value.some((v) => wanted.includes(v))
      : value !== undefined && wanted.includes(String(value)));
  return [...tasks]
    .reverse()
    .filter(
      (t) =>
        equal(t.status, f.status) &&
        equal(t.type, f.type) &&
        equal(t.project, f.project) &&
        equal(t.batch, f.batch) &&
        equal(t.customer_review_status, f.customer_review_status) &&
        equal(t.tags, f.tags) &&
        equal(t.unique_id, f.unique_id) &&
        within(t.created_at, f.start_time, f.end_time) &&
        within(t.completed_at, f.completed_after, f.completed_before) &&
        within(t.updated_at, f.updated_after, f.updated_before),
    )
    .map((t) => t.task_id);
}

/** The filter with its times made absolute (the list takes ms since the epoch). */
function absolute(drawn: typeof filterArb extends fc.Arbitrary<infer T> ? T : never): TaskListFilter {
  const filter: TaskListFilter = {};
  for (const [key, value] of Object.entries(drawn)) {
    if (value === undefined) continue;
    (filter as Record<string, unknown>)[key] = typeof value === 'number' ? T0 + value : value;
  }
  return filter;
}

const all = (tenant: ReturnType<typeof storeOf>) => tenant.tasks.all().map((r) => r.task);

const page = (tenant: ReturnType<typeof storeOf>, filter: TaskListFilter) =>
  JSON.parse(listTasks(tenant, filter).text) as {
    docs: Task[];
    total: number;
    has_more: boolean;
    next_token: string | null;
  };

describe('listTasks against a naive oracle', () => {
  it('answers the same page, total and has_more for random stores, filters, limits and offsets', () => {
    fc.assert(
      fc.property(
        fc.array(taskArb, { maxLength: 60, size: 'max' }),
        filterArb,
        fc.integer({ min: 1, max: 8 }),
        fc.nat(12),
        (drawn, drawnFilter, limit, offset) => {
          const tenant = storeOf(drawn);
          const filter = absolute(drawnFilter);
          const expected = naive(all(tenant), filter);
          const got = page(tenant, { ...filter, limit, offset });
          expect(got.docs.map((t) => t.task_id)).toEqual(expected.slice(offset, offset + limit));
          expect(got.total).toBe(expected.length);
          expect(got.has_more).toBe(expected.length > offset + limit);
        },
      ),
      { numRuns: 400, seed: 20_261_127 },
    );
  });

  it('pages through every match with next_token, once each, in order, after tasks changed', () => {
    fc.assert(
      fc.property(
        fc.array(taskArb, { maxLength: 60, size: 'max' }),
        filterArb,
        fc.integer({ min: 1, max: 7 }),
        (drawn, f, limit) => {
          const tenant = storeOf(drawn);
          const filter = absolute(f);
          // Counted before the changes below, so a count kept past a change would show.
          expect(page(tenant, filter).total).toBe(naive(all(tenant), filter).length);
          // Changes move tasks between index lists and time entries: the planner must follow them.
          for (const record of tenant.tasks.all().filter((_, i) => i % 3 === 0)) {
            tenant.tasks.update(record, (task) => {
              task.status = task.status === 'pending' ? 'completed' : 'pending';
              task.tags = ['z'];
              task.updated_at = iso(150);
            });
          }
          const expected = naive(all(tenant), filter);
          const seen: string[] = [];
          let token: string | undefined;
          for (let guard = 0; guard <= expected.length; guard += 1) {
            const got = page(tenant, { ...filter, limit, ...(token && { next_token: token }) });
            if (guard === 0) expect(got.total).toBe(expected.length);
            seen.push(...got.docs.map((t) => t.task_id));
            if (!got.next_token) break;
            token = got.next_token;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 20_261_128 },
    );
  });
});
