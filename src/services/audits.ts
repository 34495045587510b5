import { taskStatusForbids } from '../errors.js';
import { toIso } from '../runtime/clock.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { validateResponse } from './completion.js';
import { requireTask, touch } from './tasks.js';

/** Value of audit_source for audits by the service's own reviewers (the customer's is "customer"). */
const REVIEWER_SOURCE = 'reviewer';

function requireCompleted(record: TaskRecord): void {
  const { status, task_id } = record.task;
  if (status !== 'completed') throw taskStatusForbids(task_id, status, 'completed', 'audited');
}

/** `POST /v1/task/{id}/audit`: the customer accepts or rejects a completed task. */
export function customerAudit(tenant: Tenant, taskId: string, accepted: boolean, comments?: string | null): TaskRecord {
  const record = requireTask(tenant, taskId);
  requireCompleted(record);
  const result = accepted ? 'accepted' : 'rejected';
  touch(tenant, record, (task) => {
    task.customer_review_status = result;
    task.audits = [
      ...task.audits,
      {
        audited_by: 'customer',
        audited_at: toIso(tenant.now()),
        audit_time_secs: 0,
        audit_result: result,
        audit_source: 'customer',
      },
    ];
    if (comments) task.customer_review_comments = [...(task.customer_review_comments ?? []), comments];
  });
  tenant.emit({ kind: 'task_audited', record });
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
  const record = requireTask(tenant, taskId);
  requireCompleted(record);
  const fixed = response === undefined ? undefined : validateResponse(record, response);
  touch(tenant, record, (task) => {
    task.customer_review_status = result;
    if (fixed) task.response = fixed;
    task.audits = [
      ...task.audits,
      {
        audited_by: 'reviewer@labelmock',
        audited_at: toIso(tenant.now()),
        audit_time_secs: 0,
        audit_result: result,
        audit_source: REVIEWER_SOURCE,
      },
    ];
    if (comments) task.customer_review_comments = [...(task.customer_review_comments ?? []), comments];
  });
  tenant.emit({ kind: 'task_audited', record });
  return record;
}
