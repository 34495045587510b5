import { invalid } from '../errors.js';
import type { State } from '../control/schemas.js';
import type { Store } from '../store/store.js';
import type { Tenant } from '../store/tenant.js';

/** The tenant's whole state as JSON: seed data for tests, or a snapshot to inspect. */
export function exportState(tenant: Tenant): State {
  return {
    format: 'labelmock-state/1',
    clock_offset_ms: tenant.clockOffsetMs,
    settings: structuredClone(tenant.settings),
    tasks: tenant.tasks.all().map((record) => ({
      task: structuredClone(record.task),
      ...(record.internal.clear_unique_id_on_error !== undefined && { clear_unique_id_on_error: record.internal.clear_unique_id_on_error }),
    })),
  };
}

/** Replaces the tenant's state. Checked whole before anything changes, so a bad import loses nothing. */
export function importState(store: Store, tenant: Tenant, state: State): Tenant {
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
  // Creation order is what lists walk; rebuild it from created_at.
  const sorted = [...state.tasks].sort((a, b) => Date.parse(a.task.created_at) - Date.parse(b.task.created_at));
  for (const { task, clear_unique_id_on_error } of sorted) {
    const createdMs = Date.parse(task.created_at);
    fresh.tasks.insert(structuredClone(task), createdMs, { clear_unique_id_on_error });
    fresh.noteStamp(createdMs);
  }
  return fresh;
}
