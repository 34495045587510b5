import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { Tenant } from '../store/tenant.js';
import type { CallbackDispatcher } from './callbacks.js';
import { completeIfPending } from './completion.js';
import type { RunJob } from './scheduler.js';

/**
 * Maps each kind of scheduled job to the function that does it. The tenant holds only the job
 * records; the Scheduler's timers and clock advance hand the due ones to the function made here.
 */
export function jobRunner(callbacks: CallbackDispatcher): RunJob {
  return (tenant: Tenant, job: ScheduledJob) => {
    switch (job.kind) {
      case 'complete_task':
        return completeIfPending(tenant, job.task_id);
      case 'deliver_callback':
        return callbacks.deliver(tenant, job);
    }
  };
}
