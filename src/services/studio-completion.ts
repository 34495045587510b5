import { invalidParameter } from '../errors/index.js';
import { batchStatusKey } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { requireUsableBatch } from './batches.js';
import { completeTask } from './completion.js';
import { requireStudioProject } from './studio-projects.js';

export interface SendToCompletedInput {
  all_batches?: boolean;
  batches?: string[];
}

/** The batches of the project the request names: all of them, or the listed ones (all_batches wins). */
function selectedBatches(tenant: Tenant, project: string, input: SendToCompletedInput): string[] {
  const batches = tenant.shared.batches;
  if (input.all_batches) {
    return batches.byProject.list(project).flatMap((seq) => {
      const record = batches.atSeq(seq);
      return record && tenant.owns(record) ? [record.batch.name] : [];
    });
  }
  if (!input.batches || input.batches.length === 0) {
    throw invalidParameter('batches', 'is required unless all_batches is true');
  }
  input.batches.forEach((name, index) => {
    const record = requireUsableBatch(tenant, name, `batches[${index}]`);
    if (record.batch.project !== project) {
      throw invalidParameter(
        `batches[${index}]`,
        `names batch "${name}" of project "${record.batch.project}", not "${project}"`,
      );
    }
  });
  return [...new Set(input.batches)];
}

/**
 * Studio's "send tasks to completed": the unfinished tasks of the selected batches are completed
 * now, with synthesized responses, and callbacks, dependents and batch progress follow as usual.
 */
export function sendTasksToCompleted(tenant: Tenant, project: string, input: SendToCompletedInput) {
  requireStudioProject(tenant, project, 'projectName');
  const names = selectedBatches(tenant, project, input);
  let completed = 0;
  for (const name of names) {
    // Copied: completing a task takes it out of the pending list being read.
    const seqs = [...tenant.tasks.index('batch_status').list(batchStatusKey(name, 'pending'))];
    for (const seq of seqs) {
      const record = tenant.tasks.atSeq(seq);
      if (record?.task.status !== 'pending') continue;
      completeTask(tenant, record.task.task_id);
      completed += 1;
    }
  }
  return { result: 'success' as const, project, batches: names, tasks_completed: completed };
}
