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
 * Where each source stands among entries of the same millisecond: a change before the callbacks it queued,
 * and a request's answer (journaled when it was ready) after what the request did.
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
  const entries: TimelineEntry[] = [
    { kind: 'created', time: task.created_at },
    ...changes(record),
    ...audits.map(({ audited_at, audit_result, audited_by, audit_source }) => ({
      kind: 'audited' as const,
      time: audited_at,
      audit_result,
      audited_by,
      audit_source,
    })),
    ...listDeliveries(tenant, { task_id: taskId }).flatMap(callbackEntries),
    ...oldestFirst(matchingRequests(tenant, { task_id: taskId, limit: TIMELINE_REQUESTS })).map(
      (request): TimelineEntry => ({
        kind: 'request',
        time: toIso(request.timeMs),
        request_id: requestIdOf(request),
        method: request.method,
        path: request.path,
        status: request.status,
        duration_ms: request.durationMs,
      }),
    ),
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

function changes(record: TaskRecord): TimelineEntry[] {
  return (record.internal.life?.entries ?? []).map(({ kind, ms, error }) =>
    kind === 'error' ? { kind, time: toIso(ms), ...(error !== undefined && { error }) } : { kind, time: toIso(ms) },
  );
}

/** A delivery: journaled, then each attempt with what came of it. */
function callbackEntries(delivery: CallbackDelivery): TimelineEntry[] {
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
    queued,
    ...attempts.map((attempt, index): TimelineEntry => {
      const last = index === attempts.length - 1;
      const retryAt = last && state === 'pending' ? delivery.next_attempt_at : undefined;
      const outcome = outcomeOf(isDelivered(attempt.status_code), last, retryAt);
      return {
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
    }),
  ];
}

/** What came of an attempt: a 2xx, a later attempt, one scheduled, or none left. */
function outcomeOf(delivered: boolean, last: boolean, retryAt: string | undefined) {
  if (delivered) return 'delivered' as const;
  if (!last) return 'retried' as const;
  return retryAt === undefined ? ('gave_up' as const) : ('retry_scheduled' as const);
}

/** By time, then by RANK; entries of one source keep the order they came in (the sort is stable). */
function inOrder(entries: TimelineEntry[]): TimelineEntry[] {
  const keyed = entries.map((entry) => ({ entry, ms: Date.parse(entry.time) }));
  keyed.sort((a, b) => a.ms - b.ms || RANK[a.entry.kind] - RANK[b.entry.kind]);
  return keyed.map(({ entry }) => entry);
}
