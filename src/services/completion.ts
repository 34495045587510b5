import { z } from 'zod';
import { DEFAULT_COMPLETION_READS } from '../domain/settings.js';
import { describeFitIssues } from '../domain/tasks/annotation-fit.js';
import { taskMoveAllowed } from '../domain/tasks/life-cycle.js';
import { findTaskType, synthesizeResponse } from '../domain/tasks/registry.js';
import type { Task } from '../domain/tasks/task.js';
import type { V2ErrorType } from '../domain/v2/objects.js';
import type { Thread } from '../domain/v2/threads.js';
import { parseOrThrow } from '../domain/validate.js';
import { invalidParameters, responseDoesNotFit } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { eachInSlices } from '../runtime/slices.js';
import type { BatchRecord } from '../store/account.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { deliveredResponse } from './result-files.js';
import type { Scheduler } from './scheduler.js';
import { applyMove, requireMove } from './task-life-cycle.js';
import { requireTask } from './tasks.js';

const AnyResponseSchema = z.record(z.unknown());

/** Checks a given response against the task type's shape and the task's own params. */
export function validateResponse(record: TaskRecord, given: unknown): Record<string, unknown> {
  return validateResponseFor(record.task, given, 'response');
}

/** The same check for any task object, reporting under `field` (e.g. expected_response of a quality task). */
export function validateResponseFor(task: Task, given: unknown, field: string): Record<string, unknown> {
  const def = findTaskType(task.type);
  // A task of a type the mock does not know (imported state) can only be held to being an object.
  if (!def) return parseOrThrow(AnyResponseSchema, given, field);
  const verdict = def.judgeResponse(task, given);
  if (verdict.kind === 'malformed') throw invalidParameters(verdict.error, field);
  if (verdict.kind === 'unfit') {
    const issues = verdict.issues.map((issue) => ({ ...issue, path: [field, ...issue.path.slice(1)] }));
    throw responseDoesNotFit(describeFitIssues(issues));
  }
  return verdict.response;
}

/** pending -> completed, with a given (validated) or synthesized response. */
export function completeTask(tenant: Tenant, taskId: string, given?: unknown, threads?: Thread[]): TaskRecord {
  const record = requireMove(tenant, taskId, 'complete');
  const def = findTaskType(record.task.type);
  const made = given !== undefined ? validateResponse(record, given) : def ? synthesizeResponse(def, record.task) : {};
  // Before the revision: the journal line the change makes carries them (and a results file).
  const response = deliveredResponse(tenant, record, made);
  tenant.tasks.setThreads(record, threads);
  applyMove(tenant, record, 'complete', (task) => {
    task.response = response;
    task.completed_at = task.updated_at = toIso(tenant.stamp());
    task.customer_review_status = 'pending';
  });
  return record;
}

/** pending -> error (e.g. the attachment could not be processed). */
export function failTask(tenant: Tenant, taskId: string, message?: string, type?: V2ErrorType): TaskRecord {
  const record = requireMove(tenant, taskId, 'fail');
  if (type === undefined) delete record.internal.error_type;
  else record.internal.error_type = type;
  applyMove(tenant, record, 'fail', (task) => {
    task.error = message ?? 'The task could not be completed (failed through the control plane).';
    if (record.internal.clear_unique_id_on_error) delete task.unique_id;
  });
  return record;
}

/**
 * A labeler has begun a pending task (`work_started: true`): from then on a paused batch no longer holds its
 * completion, as v2 pauses only unstarted tasks.
 */
export function startWork(tenant: Tenant, taskId: string): TaskRecord {
  const record = requireMove(tenant, taskId, 'start');
  if (!record.task.work_started) applyMove(tenant, record, 'start', (task) => (task.work_started = true));
  return record;
}

/**
 * Applies the tenant's completion mode to a new task: `immediate` completes it at once (as the real
 * service's test mode does), `delay` after delay_ms of the tenant's clock, `reads` on a read (readTask),
 * `manual` never by itself.
 */
export function applyCompletionMode(tenant: Tenant, scheduler: Scheduler, record: TaskRecord): void {
  const { mode, delay_ms } = tenant.settings.completion;
  const { task_id } = record.task;
  if (mode === 'immediate') completeIfPending(tenant, task_id);
  else if (mode === 'delay')
    scheduler.schedule(tenant, { kind: 'complete_task', task_id, due_at: toIso(tenant.now() + delay_ms) });
}

/**
 * An automatic completion when it is due: a task completed, failed or canceled meanwhile is left as it
 * is. A batch holds its tasks' completions while it is staging (work begins once it is finalized: the docs'
 * "once finalized ... task processing will begin", v2/batch-finalize) and, for tasks whose work has not started,
 * while it is paused (v2: "only unstarted tasks are paused"); the batch runs them when it lets go (releaseHeld).
 */
export function completeIfPending(tenant: Tenant, taskId: string): void {
  const record = tenant.tasks.get(taskId);
  if (!record || !taskMoveAllowed('complete', record.task.status)) return;
  const batch = record.task.batch === undefined ? undefined : tenant.shared.batches.get(record.task.batch);
  if (batch && holdsCompletion(batch, record)) {
    // Appended in place: a copy per deferral made holding N completions cost N^2.
    tenant.shared.changeBatch(batch, (change) => {
      change.deferred ??= [];
      change.deferred.push(taskId);
    });
    return;
  }
  completeTask(tenant, taskId);
}

const holdsCompletion = (batch: BatchRecord, record: TaskRecord) =>
  batch.batch.status === 'staging' || (batch.hold === 'paused' && !record.task.work_started);

/** A batch finalized or resumed lets go: the completions it held run now, in the order they fell due. */
export async function releaseHeld(tenant: Tenant, batch: BatchRecord): Promise<void> {
  const deferred = tenant.shared.changeBatch(batch, (change) => {
    const held = change.deferred ?? [];
    delete change.deferred;
    return held;
  });
  await eachInSlices(deferred, (taskId) => completeIfPending(tenant, taskId));
}

/**
 * A client's read of one task (GET /v1/task/{id}, GET /v2/task). In completion mode `reads` the nth read of a
 * pending task completes it first, so the answer to that read shows it completed: the way a polling client
 * meets a service that takes a while.
 */
export function readTask(tenant: Tenant, taskId: string): TaskRecord {
  const record = requireTask(tenant, taskId);
  const { mode, reads = DEFAULT_COMPLETION_READS } = tenant.settings.completion;
  if (mode !== 'reads' || !taskMoveAllowed('complete', record.task.status)) return record;
  record.internal.reads = (record.internal.reads ?? 0) + 1;
  if (record.internal.reads >= reads) completeIfPending(tenant, taskId);
  return record;
}

/** completed -> pending: the task is labeled again; times_redone appears once a task is redone. */
export function redoTask(tenant: Tenant, taskId: string): TaskRecord {
  const record = requireMove(tenant, taskId, 'redo');
  tenant.tasks.setThreads(record, undefined);
  delete record.internal.result_file;
  applyMove(tenant, record, 'redo', (task) => {
    task.times_redone = (task.times_redone ?? 0) + 1;
    delete task.response;
    delete task.completed_at;
    // The review belongs to the response being redone: the new one awaits its own. Audits stay as history.
    task.customer_review_status = 'pending';
  });
  return record;
}
