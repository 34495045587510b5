import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { applyMove, requireMove } from './task-life-cycle.js';
import { touch } from './tasks.js';

/**
 * pending -> canceled (v1's cancel, a batch's cancel); `clearUniqueId` frees its unique_id. A repeated cancel is a
 * 200 that changes nothing but what clear_unique_id asks (the interface: cancel is idempotent).
 */
export function cancelTask(tenant: Tenant, taskId: string, clearUniqueId: boolean): TaskRecord {
  const record = requireMove(tenant, taskId, 'cancel');
  if (record.task.status === 'canceled') {
    if (clearUniqueId && record.task.unique_id !== undefined) touch(tenant, record, (task) => delete task.unique_id);
    return record;
  }
  applyMove(tenant, record, 'cancel', (task) => {
    if (clearUniqueId) delete task.unique_id;
  });
  return record;
}
