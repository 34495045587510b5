import type { TaskStatus } from './task.js';

/**
 * The one task life cycle, v1's and v2's, and the control plane's moves on it.
 *
 *   pending ──complete──> completed ──redo──> pending
 *   pending ──fail──> error
 *   pending ──cancel──> canceled ──cancel──> canceled   (a repeated cancel is a 200: the interface's idempotency)
 *   pending ──start──> pending                          (work_started: a paused batch no longer holds it)
 *   completed ──audit──> completed                      (a customer's or a reviewer's audit)
 *
 * The moves are the table below; `services/task-life-cycle.ts` `moveTask` is the one place that carries one out
 * (the check, the new status, the event). What else a move changes is its service's (completion.ts, tasks.ts,
 * audits.ts).
 */

export type TaskMove = 'complete' | 'fail' | 'start' | 'cancel' | 'redo' | 'audit';

/** The tenant events a move announces (store/tenant.ts TenantEvent's task kinds). */
type TaskMoveEvent = 'task_completed' | 'task_error' | 'task_canceled' | 'task_redone' | 'task_audited';

export interface TaskMoveRule {
  readonly from: readonly TaskStatus[];
  readonly to: TaskStatus;
  /** The move in a refusal's words: "only pending tasks can be <done>". */
  readonly done: string;
  /** The event the move announces; none for a move nobody listens for. */
  readonly event?: TaskMoveEvent;
  /** Whether the move made again on a task it already moved is a success that changes nothing of its status. */
  readonly repeatable?: boolean;
}

export const TASK_MOVES: Readonly<Record<TaskMove, TaskMoveRule>> = {
  complete: { from: ['pending'], to: 'completed', done: 'completed', event: 'task_completed' },
  fail: { from: ['pending'], to: 'error', done: 'failed', event: 'task_error' },
  start: { from: ['pending'], to: 'pending', done: 'started' },
  cancel: { from: ['pending'], to: 'canceled', done: 'canceled', event: 'task_canceled', repeatable: true },
  redo: { from: ['completed'], to: 'pending', done: 'redone', event: 'task_redone' },
  audit: { from: ['completed'], to: 'completed', done: 'audited', event: 'task_audited' },
};

/** Whether `move` may happen to a task in `status` now (a repeat of a repeatable move included). */
export const taskMoveAllowed = (move: TaskMove, status: TaskStatus): boolean => {
  const rule = TASK_MOVES[move];
  return rule.from.includes(status) || (rule.repeatable === true && status === rule.to);
};
