import { TASK_MOVES, type TaskMove, taskMoveAllowed } from '../domain/tasks/life-cycle.js';
import type { Task } from '../domain/tasks/task.js';
import { taskStatusForbids } from '../errors/index.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { requireTask, touch } from './tasks.js';

/**
 * The moves of the task life cycle (domain/tasks/life-cycle.ts) carried out, for v1, v2 and the control plane:
 * `requireMove` checks a move against the table, `applyMove` makes it (the new status with the move's own
 * changes, in one revision, then its event). Between the two a service prepares what the move needs (a checked
 * response, a results file).
 */

/** The task, if the table lets `move` happen to it now; else the 400 that states the table's rule. */
export function requireMove(tenant: Tenant, taskId: string, move: TaskMove): TaskRecord {
  const record = requireTask(tenant, taskId);
  const { status } = record.task;
  if (!taskMoveAllowed(move, status)) {
    const rule = TASK_MOVES[move];
    throw taskStatusForbids(taskId, status, rule.from.join(' or '), rule.done);
  }
  return record;
}

/** Makes `move` on a task `requireMove` let through: its new status and `change` in one revision, then its event. */
export function applyMove(tenant: Tenant, record: TaskRecord, move: TaskMove, change?: (task: Task) => void): void {
  const rule = TASK_MOVES[move];
  touch(tenant, record, (task) => {
    task.status = rule.to;
    change?.(task);
  });
  if (rule.event) tenant.emit({ kind: rule.event, record });
}
