import { type CallbackDelivery, isDelivered } from '../domain/callbacks/schemas.js';
import {
  type TaskTimeline,
  TIMELINE_AUDITS,
  TIMELINE_REQUESTS,
  type TimelineEntry,
} from '../domain/control/timeline.js';
import { toIso } from '../runtime/clock.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { listDeliveries } from './callback-journal.js';
import { matchingRequests, requestIdOf } from './request-journal.js';
import { requireTask } from './tasks.js';

/**
 * Where each source stands among entries of the same millisecond when the order they happened in is not known
 * (a task restored or imported): a change before the callbacks it queued, and a request's answer (journaled when
 * it was ready) after what the request did.
 */
const RANK: Record<TimelineEntry['kind'], number> = {
  created: 0,
  completed: 1,
  redone: 1,
  canceled: 1,
  error: 1,
  audited: 1,
  callback_queued: 2,
  callback_attempt: 2,
  request: 3,
};

/**
 * One task's timeline: its creation, its changes (store/task-life.ts), its audits, every callback of it
 * with each attempt, and the requests of the journal that touched it, oldest first. Every source is bounded
 * (changes and audits by count, callbacks by the callback journal, requests by TIMELINE_REQUESTS), so the
 * answer is too.
 */
export function taskTimeline(tenant: Tenant, taskId: string): TaskTimeline {
  const record = requireTask(tenant, taskId);
  const { task } = record;
  const life = record.internal.life;
  const audits = task.audits.slice(-TIMELINE_AUDITS);
  const entries: Sourced[] = [
    { entry: { kind: 'created', time: task.created_at }, at: tenant.happeningOf(record) },
    ...changes(tenant, record),
    ...audits.map((audit) => {
      const { audited_at, audit_result, audited_by, audit_source } = audit;
      const entry = { kind: 'audited' as const, time: audited_at, audit_result, audited_by, audit_source };
      return { entry, at: tenant.happeningOf(audit) };
    }),
    ...listDeliveries(tenant, { task_id: taskId }).flatMap((delivery) => callbackEntries(tenant, delivery)),
    ...oldestFirst(matchingRequests(tenant, { task_id: taskId, limit: TIMELINE_REQUESTS })).map((request) => ({
      entry: {
        kind: 'request' as const,
        time: toIso(request.timeMs),
        request_id: requestIdOf(request),
        method: request.method,
        path: request.path,
        status: request.status,
        duration_ms: request.durationMs,
      },
      at: request.happening,
    })),
  ];
  return {
    task_id: task.task_id,
    status: task.status,
    entries: inOrder(entries),
    rebuilt: life?.rebuilt === true,
    left_out: (life?.dropped ?? 0) + (task.audits.length - audits.length),
  };
}

/** The journal answers newest first; same-millisecond requests then keep the order they came in. */
const oldestFirst = <T>(newestFirst: T[]): T[] => newestFirst.reverse();

/** A timeline entry and its place in the order things happened in the tenant (undefined: not known). */
interface Sourced {
  entry: TimelineEntry;
  at: number | undefined;
}

function changes(tenant: Tenant, record: TaskRecord): Sourced[] {
  return (record.internal.life?.entries ?? []).map((life) => {
    const { kind, ms, error } = life;
    const time = toIso(ms);
    const entry: TimelineEntry =
      kind === 'error' ? { kind, time, ...(error !== undefined && { error }) } : { kind, time };
    return { entry, at: tenant.happeningOf(life) };
  });
}

/** A delivery: journaled, then each attempt with what came of it. */
function callbackEntries(tenant: Tenant, delivery: CallbackDelivery): Sourced[] {
  const { id: delivery_id, event, target, state, attempts } = delivery;
  const queued: TimelineEntry = {
    kind: 'callback_queued',
    time: delivery.created_at,
    delivery_id,
    event,
    target,
    state,
  };
  return [
    { entry: queued, at: tenant.happeningOf(delivery) },
    ...attempts.map((attempt, index): Sourced => {
      const last = index === attempts.length - 1;
      const retryAt = last && state === 'pending' ? delivery.next_attempt_at : undefined;
      const outcome = outcomeOf(isDelivered(attempt.status_code), last, retryAt);
      const entry: TimelineEntry = {
        kind: 'callback_attempt',
        time: attempt.at,
        delivery_id,
        attempt: attempt.attempt,
        ...(attempt.status_code !== undefined && { status_code: attempt.status_code }),
        ...(attempt.error !== undefined && { error: attempt.error }),
        duration_ms: attempt.duration_ms,
        outcome,
        ...(retryAt !== undefined && { retry_at: retryAt }),
      };
      return { entry, at: tenant.happeningOf(attempt) };
    }),
  ];
}

/** What came of an attempt: a 2xx, a later attempt, one scheduled, or none left. */
function outcomeOf(delivered: boolean, last: boolean, retryAt: string | undefined) {
  if (delivered) return 'delivered' as const;
  if (!last) return 'retried' as const;
  return retryAt === undefined ? ('gave_up' as const) : ('retry_scheduled' as const);
}

/**
 * By time; within one millisecond, in the order things happened when the tenant saw each happen (requests one
 * after another within a millisecond: a creation's answer, then the completion the client asked for next), else
 * by RANK (a restored or imported task's), the order of each source kept (the sorts are stable). Decided per
 * millisecond, so the two orders never mix into one that contradicts itself.
 */
function inOrder(entries: Sourced[]): TimelineEntry[] {
  const keyed = entries.map(({ entry, at }) => ({ entry, ms: Date.parse(entry.time), at }));
  keyed.sort((a, b) => a.ms - b.ms);
  const ordered: TimelineEntry[] = [];
  for (let start = 0; start < keyed.length; ) {
    let end = start + 1;
    while (end < keyed.length && keyed[end]?.ms === keyed[start]?.ms) end += 1;
    const sameMs = keyed.slice(start, end);
    const known = sameMs.every((k) => k.at !== undefined);
    sameMs.sort((a, b) => (known ? (a.at as number) - (b.at as number) : RANK[a.entry.kind] - RANK[b.entry.kind]));
    ordered.push(...sameMs.map((k) => k.entry));
    start = end;
  }
  return ordered;
}
