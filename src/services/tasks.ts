import { JsonText } from '../domain/common/json-text.js';
import { MAX_TAGS } from '../domain/common/values.js';
import { describeFitIssues } from '../domain/tasks/annotation-fit.js';
import { type CreateBodyParts, splitCreateBody } from '../domain/tasks/common-params.js';
import type { TaskTypeDefinition } from '../domain/tasks/registry.js';
import type { Task } from '../domain/tasks/task.js';
import { alreadyHeld, invalidCombination, invalidParameter, taskNotFound } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import { type TaskRecord, taskJson } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { syncBatchStatus } from './batch-status.js';
import { withResultContent } from './result-files.js';

/**
 * What callers get: the current revision itself, deep-frozen, so no copy is needed: later changes
 * make a new revision (never leaking into a response already built), and a caller cannot change it.
 */
export const viewTask = (record: TaskRecord): Task => record.task;

/** The current revision as the JSON answer of a task route: serialized once, reused until it changes. */
export const taskAnswer = (record: TaskRecord): JsonText<Task> => new JsonText(taskJson(record));

export function requireTask(tenant: Tenant, taskId: string): TaskRecord {
  const record = tenant.tasks.get(taskId);
  // The real service's wording; another tenant's task is reported exactly like an absent one.
  if (!record) throw taskNotFound();
  return record;
}

function taskWithUniqueId(tenant: Tenant, uniqueId: string): TaskRecord | undefined {
  const seq = tenant.tasks.index('unique_id').descending(uniqueId, Infinity).next();
  return seq.done ? undefined : tenant.tasks.atSeq(seq.value);
}

function assertUniqueIdFree(tenant: Tenant, uniqueId: string, self?: string): void {
  const holder = taskWithUniqueId(tenant, uniqueId);
  if (holder && holder.task.task_id !== self) {
    throw alreadyHeld('task', 'unique_id', uniqueId, holder.task.task_id);
  }
}

/** Creates a pending task from a validated creation body. */
export function createTask(
  tenant: Tenant,
  ids: IdGenerator,
  def: TaskTypeDefinition,
  body: Record<string, unknown>,
  projectParamVersion: number | null = null,
): TaskRecord {
  // Split once: the type's checks and the task then see the same params (parsed once, not per use).
  const split = splitCreateBody(body);
  const { common } = split;
  checkTypeRules(tenant, def, split.params);
  if (common.unique_id !== undefined) assertUniqueIdFree(tenant, common.unique_id);
  const nowMs = tenant.stamp();
  const task = buildTask(tenant, ids.next(), def, split, projectParamVersion, nowMs);
  const record = tenant.tasks.insert(task, nowMs, { clear_unique_id_on_error: common.clear_unique_id_on_error });
  syncBatchOf(tenant, record);
  tenant.emit({ kind: 'task_created', record });
  return record;
}

/** The type's rules that look beyond the request (e.g. lidar_task must name a completed lidar task). */
export function checkTypeRules(tenant: Tenant, def: TaskTypeDefinition, params: Record<string, unknown>): void {
  // Tasks as their types' rules read them: a results-file type's response is its file's content.
  const findTask = (id: string) => {
    const record = tenant.tasks.get(id);
    return record && withResultContent(record);
  };
  const issues = def.checkCreate?.(params, { findTask }) ?? [];
  if (issues.length > 0) throw invalidCombination(describeFitIssues(issues));
}

/** The pending task object a validated creation body (split) describes (not stored: quality tasks build one too). */
export function buildTask(
  tenant: Tenant,
  taskId: string,
  def: TaskTypeDefinition,
  { common, params }: CreateBodyParts,
  projectParamVersion: number | null,
  nowMs: number,
): Task {
  const now = toIso(nowMs);
  const callbackUrl = common.callback_url ?? common.callback;
  const instruction = common.instruction ?? def.defaultInstruction;
  return {
    task_id: taskId,
    created_at: now,
    updated_at: now,
    type: def.type,
    status: 'pending',
    ...(instruction !== undefined && { instruction }),
    // Object.assign, not a spread: cheaper for every stored task (docs/benchmarks.md).
    params: Object.assign({}, def.paramDefaults, params),
    ...def.taskFields?.(params),
    ...(callbackUrl !== undefined && { callback_url: callbackUrl }),
    callback_succeeded: false,
    callback_completed: false,
    metadata: common.metadata ?? {},
    ...(common.project !== undefined && { project: common.project }),
    ...(common.batch !== undefined && { batch: common.batch }),
    project_param_version: projectParamVersion,
    ...(common.priority !== undefined && { priority: common.priority }),
    ...(common.unique_id !== undefined && { unique_id: common.unique_id }),
    ...(common.tags !== undefined && { tags: dedupe(common.tags) }),
    // Every task carries a review status from creation (the interface lists it among every task's fields).
    customer_review_status: 'pending',
    audits: [],
    is_test: tenant.mode === 'test',
    urgency: 'standard',
    work_started: false,
    // Every recorded task carries it, empty (scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/*.yml).
    processed_attachments: [],
  };
}

/** Marks a change: every mutation of a task moves updated_at. */
export function touch(tenant: Tenant, record: TaskRecord, change: (task: Task) => void): TaskRecord {
  tenant.tasks.update(record, (task) => {
    change(task);
    task.updated_at = toIso(tenant.stamp());
  });
  syncBatchOf(tenant, record);
  return record;
}

function syncBatchOf(tenant: Tenant, record: TaskRecord): void {
  const batch = record.task.batch === undefined ? undefined : tenant.shared.batches.get(record.task.batch);
  // Batch names are per account: a batch of the other mode is never this task's to move.
  if (batch && tenant.owns(batch)) syncBatchStatus(tenant, batch);
}

export function setMetadata(tenant: Tenant, taskId: string, metadata: Record<string, unknown>): TaskRecord {
  return touch(tenant, requireTask(tenant, taskId), (task) => {
    task.metadata = metadata;
  });
}

export function setUniqueId(tenant: Tenant, taskId: string, uniqueId: string): TaskRecord {
  const record = requireTask(tenant, taskId);
  assertUniqueIdFree(tenant, uniqueId, taskId);
  return touch(tenant, record, (task) => {
    task.unique_id = uniqueId;
  });
}

export function deleteUniqueId(tenant: Tenant, taskId: string): TaskRecord {
  return touch(tenant, requireTask(tenant, taskId), (task) => {
    delete task.unique_id;
  });
}

export type TagOperation = 'replace' | 'add' | 'remove';

/** POST replaces all tags, PUT adds (present ones ignored), DELETE removes (absent ones ignored); order is kept. */
export function changeTags(tenant: Tenant, taskId: string, operation: TagOperation, tags: string[]): TaskRecord {
  const record = requireTask(tenant, taskId);
  const current = record.task.tags ?? [];
  const next =
    operation === 'replace'
      ? dedupe(tags)
      : operation === 'add'
        ? dedupe([...current, ...tags])
        : current.filter((tag) => !tags.includes(tag));
  if (next.length > MAX_TAGS) {
    throw invalidParameter('tags', `must have at most ${MAX_TAGS} item(s) (the task would have ${next.length})`);
  }
  return touch(tenant, record, (task) => {
    task.tags = next;
  });
}

const dedupe = (values: string[]) => [...new Set(values)];
