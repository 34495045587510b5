import { batchStateOf } from '../../domain/batches/life-cycle.js';
import type { Batch } from '../../domain/batches/schemas.js';
import type { Task } from '../../domain/tasks/task.js';
import { objectIdOf } from '../../runtime/object-id.js';
import type { AccountState, BatchRecord, ProjectRecord } from '../../store/account.js';
import type { TaskRecord } from '../../store/task-collection.js';
import type { Tenant } from '../../store/tenant.js';
import { type ThreadOption, threadsOf } from './threads.js';

/**
 * The v2 face of the store's objects: the same project, batch and task v1 shows, by id, with v2's
 * statuses. Nothing here is stored; each view is made from the one record.
 */

export type TaskExpand = 'project' | 'batch';

export function projectView({ project, id }: ProjectRecord) {
  return { id, name: project.name, created_at: project.created_at, types: [project.type] };
}

/** The id of the project a batch or task names (a project is never removed, but an import may name any). */
function projectRef(shared: AccountState, name: string, expand: boolean) {
  const record = shared.projects.get(name);
  if (record && expand) return projectView(record);
  return record?.id ?? objectIdOf('project', shared.account, name);
}

export function batchView(shared: AccountState, record: BatchRecord, expandProject = false) {
  const batch: Batch = record.batch;
  return {
    id: record.id,
    name: batch.name,
    project: projectRef(shared, batch.project, expandProject),
    created_at: batch.created_at,
    ...(batch.completed_at !== undefined && { completed_at: batch.completed_at }),
    status: batchStateOf(record),
    ...(batch.callback !== undefined && { callback: batch.callback }),
    metadata: batch.metadata,
  };
}

function batchRef(shared: AccountState, name: string, expand: boolean) {
  const record = shared.batches.get(name);
  if (record && expand) return batchView(shared, record);
  return record?.id ?? objectIdOf('batch', shared.account, name);
}

/**
 * A task as v2 shows it. A v1 task made without a project shows `project: ""` (v2 requires the field;
 * there is no project to name). Threads are empty unless the task is completed.
 */
export function taskView(
  tenant: Tenant,
  record: TaskRecord,
  expand: readonly TaskExpand[] = [],
  opts: readonly ThreadOption[] = [],
) {
  const task: Task = record.task;
  const { shared } = tenant;
  return {
    task_id: task.task_id,
    project: task.project === undefined ? '' : projectRef(shared, task.project, expand.includes('project')),
    ...(task.batch !== undefined && { batch: batchRef(shared, task.batch, expand.includes('batch')) }),
    status: task.status,
    created_at: task.created_at,
    ...(task.completed_at !== undefined && { completed_at: task.completed_at }),
    metadata: task.metadata,
    threads: task.status === 'completed' ? threadsOf(record, opts) : [],
    ...(task.status === 'error' && { errors: [errorOf(record)] }),
  };
}

function errorOf({ task, internal }: TaskRecord) {
  return {
    ...(internal.error_type && { type: internal.error_type }),
    message: task.error ?? 'The task could not be completed.',
  };
}
