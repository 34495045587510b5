import type { MockEvent } from '../domain/events/schemas.js';
import { eventMatches, type WaitCriteria } from '../domain/events/wait.js';
import type { HeldRefusal } from '../runtime/held-requests.js';
import type { Tenant } from '../store/tenant.js';
import type { EventBus, SequencedEvent } from './events.js';

/** A wait's answer: the event and its number (null: the state already showed it, no event was waited for). */
export interface WaitOutcome {
  id: number | null;
  event: MockEvent;
}

/** The task status each task event leaves behind: a task already there needs no waiting. */
const STATUS_AFTER: Partial<Record<WaitCriteria['event'], string>> = {
  'task.completed': 'completed',
  'task.canceled': 'canceled',
  'task.error': 'error',
};

/**
 * What the tenant's state already shows, as the event that led there: a task named by task_id that exists
 * (task.created) or already has the status the event leaves (task.completed, task.canceled, task.error), or a
 * batch named by batch that is completed. So a test that waits for a completion that came first (completion
 * mode immediate) is answered at once, however the two raced.
 */
function shownByState(tenant: Tenant, criteria: WaitCriteria): MockEvent | undefined {
  const { event } = criteria;
  if (event === 'batch.completed' && criteria.batch !== undefined) {
    const record = tenant.shared.batches.get(criteria.batch);
    if (!record || !tenant.owns(record) || record.batch.status !== 'completed') return undefined;
    return { type: event, time: record.batch.completed_at ?? record.batch.created_at, batch: record.batch.name };
  }
  if (!event.startsWith('task.') || criteria.task_id === undefined) return undefined;
  const task = tenant.tasks.get(criteria.task_id)?.task;
  const status = STATUS_AFTER[event];
  if (!task || (event !== 'task.created' && task.status !== status)) return undefined;
  const shown = {
    type: event,
    time: task.updated_at,
    task_id: task.task_id,
    task_type: task.type,
    status: task.status,
  };
  return eventMatches(criteria, shown as MockEvent) ? (shown as MockEvent) : undefined;
}

/**
 * GET /_mock/wait: the first event of the tenant that matches: one kept from after `since`, else what the state
 * already shows, else the next one as it happens; 'timeout' when none came within `timeoutMs` (real time);
 * 'gone' when the client left.
 * Waiting holds a subscription, so it counts against the stream limits and the held-request budget.
 */
export async function waitForEvent(
  bus: EventBus,
  tenant: Tenant,
  criteria: WaitCriteria,
  options: { since?: number | undefined; timeoutMs: number; gone: (end: () => void) => void },
): Promise<WaitOutcome | 'timeout' | 'gone' | 'tenant_limit' | HeldRefusal> {
  // From now on the tenant's events are numbered and kept, for a later wait's since.
  bus.watch(tenant.key);
  const kept = options.since === undefined ? undefined : firstMatch(bus.recentSince(tenant.key, options.since));
  if (kept) return kept;
  const shown = shownByState(tenant, criteria);
  if (shown) return { id: null, event: shown };
  const subscription = bus.subscribe(tenant.key);
  if (typeof subscription === 'string') return subscription;
  options.gone(() => subscription.close());
  const deadline = Date.now() + options.timeoutMs;
  try {
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      const next = await subscription.next(left);
      if (next === 'closed') return 'gone';
      if (next !== 'idle' && eventMatches(criteria, next.event)) return next;
    }
  } finally {
    subscription.close();
  }

  function firstMatch(items: SequencedEvent[]): SequencedEvent | undefined {
    return items.find((item) => eventMatches(criteria, item.event));
  }
}
