import { batchStateOf } from '../../domain/batches/life-cycle.js';
import type { Batch } from '../../domain/batches/schemas.js';
import { JsonText, ownBytes } from '../../domain/common/json-text.js';
import type { Task } from '../../domain/tasks/task.js';
import { objectIdOf } from '../../runtime/object-id.js';
import type { AccountState, BatchRecord, ProjectRecord } from '../../store/account.js';
import type { TaskRecord } from '../../store/task-collection.js';
import type { Tenant } from '../../store/tenant.js';
import { RevisionCache } from './revision-cache.js';
import { optionsKey, type ThreadOption, threadsOf } from './threads.js';

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

/**
 * A task's view without `expand`, as JSON bytes, made once per revision and `opts`. Nothing else changes it: a
 * revision is deep-frozen and replaced on any change, project and batch ids derive from their names, and the
 * stored threads and error type are set with the revision (checked all the same). An expanded project or batch
 * shows its own state, so expanded views are made per read.
 */
const viewBytes = new RevisionCache<Uint8Array>();

export function taskViewBytes(tenant: Tenant, record: TaskRecord, opts: readonly ThreadOption[] = []): Uint8Array {
  const { threads, error_type: errorType } = record.internal;
  return viewBytes.get(record.task, [threads, errorType], optionsKey(opts), () =>
    ownBytes(JSON.stringify(taskView(tenant, record, [], opts))),
  );
}

/**
 * `head`, the tasks' views, then `next_token` when there is one, as one JSON text: a page of v2 tasks (a list or a
 * delivery) joins the bytes each task's view keeps instead of building and serializing every view again.
 */
export function taskPageJson<T>(
  tenant: Tenant,
  head: string,
  records: readonly TaskRecord[],
  opts: readonly ThreadOption[] | undefined,
  nextToken: string | undefined,
): JsonText<T> {
  const tail = nextToken === undefined ? ']}' : `],"next_token":${JSON.stringify(nextToken)}}`;
  return JsonText.array<T>(
    head,
    records.map((record) => taskViewBytes(tenant, record, opts)),
    tail,
  );
}

function errorOf({ task, internal }: TaskRecord) {
  return {
    ...(internal.error_type && { type: internal.error_type }),
    message: task.error ?? 'The task could not be completed.',
  };
}
