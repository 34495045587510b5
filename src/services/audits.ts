import type { Task } from '../domain/tasks/task.js';
import { toIso } from '../runtime/clock.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { validateResponse } from './completion.js';
import { deliveredResponse } from './result-files.js';
import { applyMove, requireMove } from './task-life-cycle.js';

/** Value of audit_source for audits by the service's own reviewers (the customer's is "customer"). */
const REVIEWER_SOURCE = 'reviewer';

/** A new list, not a push: a task revision's nested values are frozen and shared with earlier revisions. */
function addAudit(task: Task, by: string, at: string, result: string, source: string): void {
  const audit = { audited_by: by, audited_at: at, audit_time_secs: 0, audit_result: result, audit_source: source };
  task.audits = [...task.audits, audit];
}

/** `POST /v1/task/{id}/audit`: the customer accepts or rejects a completed task. */
export function customerAudit(tenant: Tenant, taskId: string, accepted: boolean, comments?: string | null): TaskRecord {
  const record = requireMove(tenant, taskId, 'audit');
  const result = accepted ? 'accepted' : 'rejected';
  applyMove(tenant, record, 'audit', (task) => {
    task.customer_review_status = result;
    addAudit(task, 'customer', toIso(tenant.now()), result, 'customer');
    if (comments) task.customer_review_comments = [...(task.customer_review_comments ?? []), comments];
  });
  return record;
}

/** The service's own reviewers accept the task or fix it (optionally with a corrected response). */
export function reviewerAudit(
  tenant: Tenant,
  taskId: string,
  result: 'accepted' | 'fixed',
  response?: unknown,
  comments?: string,
): TaskRecord {
  const record = requireMove(tenant, taskId, 'audit');
  const checked = response === undefined ? undefined : validateResponse(record, response);
  // Before the revision, as a completion's: a results-file type keeps the fix in its file.
  const fixed = checked && deliveredResponse(tenant, record, checked);
  applyMove(tenant, record, 'audit', (task) => {
    task.customer_review_status = result;
    if (fixed) task.response = fixed;
    addAudit(task, 'reviewer@labelmock', toIso(tenant.now()), result, REVIEWER_SOURCE);
    if (comments) task.customer_review_comments = [...(task.customer_review_comments ?? []), comments];
  });
  return record;
}
