import { z } from 'zod';
import { Lenience } from '../domain/lenience.js';
import { findTaskType, TASK_TYPES } from '../domain/tasks/registry.js';
import type { Task } from '../domain/tasks/task.js';
import { parseOrThrow } from '../domain/validate.js';
import { ApiError, inContext, invalidParameter, unsupportedType, wrongState } from '../errors/index.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant, TenantEvent } from '../store/tenant.js';
import type { Services } from './context.js';
import { withResultContent } from './result-files.js';
import { createFromRequest } from './task-creation.js';
import { resolveCreation } from './task-inheritance.js';
import { requireTask, touch } from './tasks.js';

export const DependentOptionsBodySchema = z
  .object({
    defs: z.array(z.object({ type: z.string().min(1) }).passthrough()),
    require_audit: z.boolean().optional(),
  })
  .strict();
export type DependentOptions = z.infer<typeof DependentOptionsBodySchema>;

/**
 * A definition as it will be created: what the root's type passes on (its data item, for lidar work
 * a reference to itself, ...), as far as the dependent's type takes it, then the definition's own params.
 */
function dependentBody(root: Task, def: DependentOptions['defs'][number]): Record<string, unknown> {
  const { type, ...params } = def;
  const dependentType = findTaskType(type);
  const offered = findTaskType(root.type)?.offerToDependent(root, { type, params }) ?? {};
  const taken = Object.entries(offered).filter(([key]) => dependentType?.takes(key));
  return { ...Object.fromEntries(taken), ...params };
}

/**
 * `POST /v1/task/{id}/dependents/options`: only while the root is unfinished; each def checked as a creation request.
 */
export function setDependentOptions(
  tenant: Tenant,
  taskId: string,
  options: DependentOptions,
  lenience?: Lenience,
): TaskRecord {
  const record = requireTask(tenant, taskId);
  if (record.task.status !== 'pending')
    throw wrongState(
      `Task ${taskId}`,
      `is ${record.task.status}`,
      'dependent options can be set only while it is pending',
    );
  options.defs.forEach((def, index) => {
    const type = findTaskType(def.type);
    if (!type)
      throw invalidParameter(
        `defs[${index}].type`,
        `must be a task type (one of ${Object.keys(TASK_TYPES).join(', ')})`,
      );
    // Cross-task rules (a completed lidar_task, say) wait for creation: the root is not finished yet.
    let body: Record<string, unknown>;
    try {
      body = resolveCreation(tenant, type, dependentBody(withResultContent(record), def)).body;
    } catch (err) {
      if (err instanceof ApiError) throw inContext(`In defs[${index}]`, err);
      throw err;
    }
    parseOrThrow(type.createSchema, body, `defs[${index}]`, lenience);
  });
  record.internal.dependents = { defs: options.defs, require_audit: options.require_audit ?? false, created: false };
  return touch(tenant, record, (task) => {
    task.dependents = [];
  });
}

function createDependents(services: Services, tenant: Tenant, record: TaskRecord): void {
  const options = record.internal.dependents;
  if (!options || options.created) return;
  options.created = true;
  tenant.tasks.internalChanged(record);
  const ids = options.defs.map((def) => {
    const type = findTaskType(def.type);
    if (!type) throw unsupportedType('Dependent type', def.type);
    // Lenient: the defs were checked when set, under the tenant's setting then; what passed then is made now.
    return createFromRequest(services, tenant, type, dependentBody(withResultContent(record), def), new Lenience(true))
      .record.task.task_id;
  });
  touch(tenant, record, (task) => {
    task.dependents = ids;
  });
}

/**
 * `POST /v1/task/{id}/dependents/force_creation`: skips the audit; the root must be completed and the dependents not
 * yet made.
 */
export function forceDependents(services: Services, tenant: Tenant, taskId: string): TaskRecord {
  const record = requireTask(tenant, taskId);
  const options = record.internal.dependents;
  if (!options) {
    const rule = `define them first with POST /v1/task/${taskId}/dependents/options`;
    throw wrongState(`Task ${taskId}`, 'has no dependent tasks defined', rule);
  }
  if (record.task.status !== 'completed') {
    throw wrongState(`Task ${taskId}`, `is ${record.task.status}`, 'dependents are created only for a completed task');
  }
  if (options.created) {
    throw wrongState(`The dependent tasks of task ${taskId}`, 'exist already', 'they are created once');
  }
  createDependents(services, tenant, record);
  return record;
}

/** Creates dependents when the root completes, or, with require_audit, when the customer accepts or fixes it. */
export function dependentsListener(services: Services) {
  return (tenant: Tenant, event: TenantEvent): void => {
    if (event.kind !== 'task_completed' && event.kind !== 'task_audited') return;
    const record = event.record;
    const options = record.internal.dependents;
    if (!options || options.created || record.task.status !== 'completed') return;
    const audited = record.task.customer_review_status === 'accepted' || record.task.customer_review_status === 'fixed';
    if (options.require_audit && !audited) return;
    try {
      createDependents(services, tenant, record);
    } catch (err) {
      // The root's own change stands; why its dependents could not be made is shown on it.
      touch(tenant, record, (task) => {
        task.dependents_error = err instanceof Error ? err.message : String(err);
      });
    }
  };
}
