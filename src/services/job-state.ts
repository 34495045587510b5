import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import { checkIsoTimestamp } from '../domain/common/stored-values.js';
import { sortByDue } from '../domain/jobs/queue.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { State } from '../domain/state/schema.js';
import { invalidParameter } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { Tenant } from '../store/tenant.js';

/** The callback journal and the scheduled jobs as an export ends with them (copies). */
export function exportJobState(tenant: Tenant): Pick<State, 'callbacks' | 'scheduled_jobs'> {
  return {
    callbacks: tenant.callbacks.map((delivery) => structuredClone(delivery)),
    scheduled_jobs: tenant.jobs.map((job) => ({ ...job })),
  };
}

/**
 * Checks an import's callback journal and jobs before anything changes: delivery ids are unique,
 * every job's time parses and names a task or delivery the import carries, and no delivery has
 * two jobs (two attempts at once).
 */
export function checkJobState(state: State): void {
  const deliveries = checkDeliveries(state.callbacks);
  const tasks = new Set(state.tasks.map(({ task }) => task.task_id));
  const delivered = new Set<string>();
  state.scheduled_jobs.forEach((job, index) => {
    const at = `scheduled_jobs[${index}]`;
    checkIsoTimestamp(job.due_at, `${at}.due_at`);
    if (job.kind === 'complete_task' && !tasks.has(job.task_id))
      throw invalidParameter(`${at}.task_id`, `names ${job.task_id}, which is not among the imported tasks`);
    if (job.kind !== 'deliver_callback') return;
    if (!deliveries.has(job.delivery_id))
      throw invalidParameter(`${at}.delivery_id`, `names ${job.delivery_id}, which is not in the imported callbacks`);
    if (delivered.has(job.delivery_id))
      throw invalidParameter(`${at}.delivery_id`, `${job.delivery_id} already has a scheduled attempt`);
    delivered.add(job.delivery_id);
  });
}

/**
 * Gives a fresh tenant the checked journal and jobs (it takes over the parsed objects). Times are
 * rewritten as toIso writes them, which the scheduler relies on. A pending delivery without a job
 * had its attempt in flight when the export was made: it gets that attempt again, due at once.
 */
export function importJobState(tenant: Tenant, state: State): void {
  tenant.callbacks = state.callbacks;
  const jobs: ScheduledJob[] = state.scheduled_jobs.map((job) => ({ ...job, due_at: toIso(Date.parse(job.due_at)) }));
  const scheduled = new Set(jobs.flatMap((job) => (job.kind === 'deliver_callback' ? [job.delivery_id] : [])));
  for (const delivery of state.callbacks) {
    if (delivery.state === 'pending' && !scheduled.has(delivery.id)) jobs.push(retakeAttempt(delivery));
  }
  tenant.jobs = sortByDue(jobs);
}

/** Delivery ids are unique, and the times retries count from parse. */
function checkDeliveries(callbacks: CallbackDelivery[]): Set<string> {
  const ids = new Set<string>();
  callbacks.forEach((delivery, index) => {
    if (ids.has(delivery.id)) throw invalidParameter(`callbacks[${index}].id`, `repeats ${delivery.id}`);
    ids.add(delivery.id);
    for (const field of ['created_at', 'next_attempt_at'] as const) {
      checkIsoTimestamp(delivery[field], `callbacks[${index}].${field}`);
    }
  });
  return ids;
}

function retakeAttempt(delivery: CallbackDelivery): ScheduledJob {
  const dueAt = toIso(Date.parse(delivery.next_attempt_at ?? delivery.created_at));
  return { kind: 'deliver_callback', delivery_id: delivery.id, attempt: delivery.attempts.length + 1, due_at: dueAt };
}
