import { checkIsoTimestamp } from '../domain/common/stored-values.js';
import type { State } from '../domain/state/schema.js';
import { invalidParameter } from '../errors/index.js';
import { batchOf, extrasOf, projectOf } from '../store/account.js';
import type { Store } from '../store/store.js';
import type { TaskRecord } from '../store/task-collection.js';
import { rebuiltLife } from '../store/task-life.js';
import type { Tenant } from '../store/tenant.js';
import { V2Catalog } from '../store/v2-catalog.js';
import { checkImportedFileQuota } from './file-quota.js';
import { exportFiles, importFiles } from './file-state.js';
import { checkTaskReferences } from './imported-task-check.js';
import { checkJobState, exportJobState, importJobState } from './job-state.js';
import type { Scheduler } from './scheduler.js';
import { checkTeamState, exportTeamState, importTeamState } from './team-state.js';

/** `POST /_mock/reset`: the tenant starts again empty (its projects, batches and idempotency keys go too). */
export function resetTenant(store: Store, tenant: Tenant): void {
  store.reset(tenant.account, tenant.mode);
}

/** The tenant's whole state as JSON: seed data for tests, or a snapshot to inspect. */
export function exportState(tenant: Tenant): State {
  return {
    ...stateHead(tenant),
    tasks: tenant.tasks.all().map((record) => structuredClone(stateTask(record))),
    files: exportFiles(tenant),
    ...stateTail(tenant),
    ...exportJobState(tenant),
  };
}

/** The fields an export ends with: team, Studio, training attempts and quality tasks. */
export function stateTail(tenant: Tenant): Pick<State, 'team' | 'studio' | 'training_attempts' | 'quality_tasks'> {
  return { ...exportTeamState(tenant), quality_tasks: tenant.qualityTasks.all().map((task) => structuredClone(task)) };
}

/** The account's projects and batches the tenant's mode made, as an export carries them (copies). */
export function ownedProjectsAndBatches(tenant: Tenant): Pick<State, 'projects' | 'batches'> {
  return {
    projects: [...tenant.shared.projects.values()]
      .filter((r) => tenant.owns(r))
      .map((r) => structuredClone(projectOf(r))),
    batches: tenant.shared.batches
      .all()
      .filter((r) => tenant.owns(r))
      .map((r) => structuredClone({ ...batchOf(r), ...extrasOf(r) })),
  };
}

/**
 * The fields an export starts with, in their order on the wire (services/state-stream.ts writes the rest).
 * `withCatalog: false` leaves the v2 catalog out (the stream writes it in pieces; it may be large).
 */
export function stateHead(
  tenant: Tenant,
  withCatalog = true,
): Pick<State, 'format' | 'clock_offset_ms' | 'settings' | 'projects' | 'batches' | 'v2'> {
  return {
    format: 'labelmock-state/1',
    clock_offset_ms: tenant.clockOffsetMs,
    settings: structuredClone(tenant.settings),
    ...ownedProjectsAndBatches(tenant),
    ...(withCatalog && !tenant.v2.isEmpty && { v2: structuredClone(tenant.v2.toState()) }),
  };
}

/** One task as exported; shares its objects with the store (serialize it, or clone it first). */
export function stateTask(record: TaskRecord): State['tasks'][number] {
  return {
    task: record.task,
    ...(record.internal.clear_unique_id_on_error !== undefined && {
      clear_unique_id_on_error: record.internal.clear_unique_id_on_error,
    }),
    ...(record.internal.error_type && { error_type: record.internal.error_type }),
    ...(record.internal.result_file && { result_file: record.internal.result_file }),
    ...(record.internal.dependents && { dependent_options: record.internal.dependents }),
    ...(record.internal.threads && { threads: record.internal.threads }),
  };
}

/**
 * Replaces the tenant's state. Checked whole before anything changes, so a bad import loses nothing.
 * The tenant takes over the state's task objects (a parsed request body, no one else's): copying
 * thousands of them would only lengthen the time the import holds the event loop.
 */
export function importState(store: Store, tenant: Tenant, state: State, scheduler: Scheduler): Tenant {
  checkNames(tenant, state);
  checkTaskReferences(state);
  checkTeamState(state);
  checkImportedFileQuota(state.files, store.limits.maxFileBytesPerTenant);
  checkQualityTaskIds(state);
  checkJobState(state);
  const ids = new Set<string>();
  const uniqueIds = new Map<string, string>();
  state.tasks.forEach(({ task }, index) => {
    if (ids.has(task.task_id)) throw invalidParameter(`tasks[${index}].task.task_id`, `repeats ${task.task_id}`);
    ids.add(task.task_id);
    if (task.unique_id !== undefined) {
      const holder = uniqueIds.get(task.unique_id);
      if (holder)
        throw invalidParameter(`tasks[${index}].task.unique_id`, `"${task.unique_id}" is also used by task ${holder}`);
      uniqueIds.set(task.unique_id, task.task_id);
    }
    if (task.is_test !== (tenant.mode === 'test')) {
      throw invalidParameter(
        `tasks[${index}].task.is_test`,
        `must be ${tenant.mode === 'test'} for a ${tenant.mode} key`,
      );
    }
  });
  const fresh = store.reset(tenant.account, tenant.mode);
  // Fault rules are test setup, not state (an export leaves them out): an import keeps them.
  for (const record of tenant.faults.all()) fresh.faults.add(record);
  fresh.clockOffsetMs = state.clock_offset_ms;
  fresh.settings = structuredClone(state.settings);
  for (const project of state.projects) fresh.shared.addProject(structuredClone(project), fresh.mode);
  const batches = [...state.batches].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const { hold, deferred, ...batch } of batches) {
    const extras = { ...(hold && { hold }), ...(deferred && { deferred: [...deferred] }) };
    fresh.shared.batches.insert(structuredClone(batch), fresh.mode, Date.parse(batch.created_at), extras);
  }
  if (state.v2) fresh.v2 = V2Catalog.fromState(state.v2);
  // Creation order is what lists walk; rebuild it from created_at.
  // Each date parsed once, not in every comparison: thousands of tasks sort in a few milliseconds.
  const sorted = state.tasks
    .map((entry) => ({ entry, createdMs: Date.parse(entry.task.created_at) }))
    .sort((a, b) => a.createdMs - b.createdMs);
  for (const { entry, createdMs } of sorted) {
    const { task, clear_unique_id_on_error, error_type, result_file, dependent_options, threads } = entry;
    const life = rebuiltLife(task);
    const internal = {
      clear_unique_id_on_error,
      error_type,
      result_file,
      dependents: dependent_options,
      threads,
      ...(life && { life }),
    };
    fresh.tasks.insert(task, createdMs, internal);
    fresh.noteStamp(createdMs);
  }
  importFiles(fresh, state.files);
  importTeamState(fresh, state);
  for (const task of state.quality_tasks) fresh.qualityTasks.add(structuredClone(task));
  importJobState(fresh, state);
  scheduler.rearm(fresh);
  return fresh;
}

/** Project and batch names are unique per account: an import must not take a name the other mode holds. */
function checkNames(tenant: Tenant, state: State): void {
  const projects = new Set<string>();
  state.projects.forEach((project, index) => {
    const other = tenant.shared.projects.get(project.name);
    if (projects.has(project.name) || (other && !tenant.owns(other))) {
      throw invalidParameter(`projects[${index}].name`, `"${project.name}" is already used in this account`);
    }
    projects.add(project.name);
  });
  const batches = new Set<string>();
  state.batches.forEach((batch, index) => {
    const other = tenant.shared.batches.get(batch.name);
    if (batches.has(batch.name) || (other && !tenant.owns(other))) {
      throw invalidParameter(`batches[${index}].name`, `"${batch.name}" is already used in this account`);
    }
    for (const field of ['created_at', 'completed_at'] as const)
      checkIsoTimestamp(batch[field], `batches[${index}].${field}`);
    if (!projects.has(batch.project)) {
      throw invalidParameter(
        `batches[${index}].project`,
        `names "${batch.project}", which is not among the imported projects`,
      );
    }
    batches.add(batch.name);
  });
}

function checkQualityTaskIds(state: State): void {
  const ids = new Set<string>();
  state.quality_tasks.forEach((task, index) => {
    if (ids.has(task.id)) throw invalidParameter(`quality_tasks[${index}].id`, `repeats ${task.id}`);
    ids.add(task.id);
  });
}
