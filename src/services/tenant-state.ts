import { invalid } from '../errors.js';
import type { State } from '../control/schemas.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../store/tenant.js';
import { exportFiles, importFiles } from './file-state.js';
import { checkTeamState, exportTeamState, importTeamState } from './team-state.js';

/** The tenant's whole state as JSON: seed data for tests, or a snapshot to inspect. */
export function exportState(tenant: Tenant): State {
  return {
    format: 'labelmock-state/1',
    clock_offset_ms: tenant.clockOffsetMs,
    settings: structuredClone(tenant.settings),
    projects: [...tenant.shared.projects.values()].filter((r) => r.mode === tenant.mode).map((r) => structuredClone(r.project)),
    batches: tenant.shared.batches.all().filter((r) => r.mode === tenant.mode).map((r) => structuredClone(r.batch)),
    tasks: tenant.tasks.all().map((record) => ({
      task: structuredClone(record.task),
      ...(record.internal.clear_unique_id_on_error !== undefined && { clear_unique_id_on_error: record.internal.clear_unique_id_on_error }),
      ...(record.internal.dependents && { dependent_options: structuredClone(record.internal.dependents) }),
    })),
    files: exportFiles(tenant),
    ...exportTeamState(tenant),
  };
}

/** Replaces the tenant's state. Checked whole before anything changes, so a bad import loses nothing. */
export function importState(store: Store, tenant: Tenant, state: State): Tenant {
  checkNames(tenant, state);
  checkTeamState(state);
  const ids = new Set<string>();
  const uniqueIds = new Map<string, string>();
  state.tasks.forEach(({ task }, index) => {
    if (ids.has(task.task_id)) throw invalid(`Parameter is invalid, reason: "tasks[${index}].task.task_id" repeats ${task.task_id}`);
    ids.add(task.task_id);
    if (Number.isNaN(Date.parse(task.created_at))) throw invalid(`Parameter is invalid, reason: "tasks[${index}].task.created_at" must be an ISO 8601 timestamp`);
    if (task.unique_id !== undefined) {
      const holder = uniqueIds.get(task.unique_id);
      if (holder) throw invalid(`Parameter is invalid, reason: "tasks[${index}].task.unique_id" "${task.unique_id}" is also used by task ${holder}`);
      uniqueIds.set(task.unique_id, task.task_id);
    }
    if (task.is_test !== (tenant.mode === 'test')) {
      throw invalid(`Parameter is invalid, reason: "tasks[${index}].task.is_test" must be ${tenant.mode === 'test'} for a ${tenant.mode} key`);
    }
  });
  const fresh = store.reset(tenant.account, tenant.mode);
  fresh.clockOffsetMs = state.clock_offset_ms;
  fresh.settings = structuredClone(state.settings);
  for (const project of state.projects) fresh.shared.projects.set(project.name, { project: structuredClone(project), mode: fresh.mode });
  const batches = [...state.batches].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at));
  for (const batch of batches) fresh.shared.batches.insert(structuredClone(batch), fresh.mode, Date.parse(batch.created_at));
  // Creation order is what lists walk; rebuild it from created_at.
  const sorted = [...state.tasks].sort((a, b) => Date.parse(a.task.created_at) - Date.parse(b.task.created_at));
  for (const { task, clear_unique_id_on_error, dependent_options } of sorted) {
    const createdMs = Date.parse(task.created_at);
    fresh.tasks.insert(structuredClone(task), createdMs, { clear_unique_id_on_error, dependents: structuredClone(dependent_options) });
    fresh.noteStamp(createdMs);
  }
  importFiles(fresh, state.files);
  importTeamState(fresh, state);
  return fresh;
}

/** Project and batch names are unique per account: an import must not take a name the other mode holds. */
function checkNames(tenant: Tenant, state: State): void {
  const projects = new Set<string>();
  state.projects.forEach((project, index) => {
    const other = tenant.shared.projects.get(project.name);
    if (projects.has(project.name) || (other && other.mode !== tenant.mode)) {
      throw invalid(`Parameter is invalid, reason: "projects[${index}].name" "${project.name}" is already used in this account`);
    }
    projects.add(project.name);
  });
  const batches = new Set<string>();
  state.batches.forEach((batch, index) => {
    const other = tenant.shared.batches.get(batch.name);
    if (batches.has(batch.name) || (other && other.mode !== tenant.mode)) {
      throw invalid(`Parameter is invalid, reason: "batches[${index}].name" "${batch.name}" is already used in this account`);
    }
    if (!projects.has(batch.project)) {
      throw invalid(`Parameter is invalid, reason: "batches[${index}].project" names "${batch.project}", which is not among the imported projects`);
    }
    batches.add(batch.name);
  });
}
