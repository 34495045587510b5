import { z } from 'zod';
import type { LabelDescription } from '../domain/common/labels.js';
import { innerObject } from '../domain/projects/params.js';
import { projectCuboidsFromAbove } from '../domain/tasks/cuboid-projection.js';
import { findTaskType, TASK_TYPES } from '../domain/tasks/registry.js';
import type { Task } from '../domain/tasks/task.js';
import type { LidarAnnotationResponse } from '../domain/tasks/types/lidarannotation.js';
import { parseOrThrow } from '../domain/validate.js';
import { ApiError, invalid } from '../errors.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant, TenantEvent } from '../store/tenant.js';
import type { Services } from './context.js';
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

/** The same data item: a dependent takes the root's attachments unless its definition names others. */
const INHERITED = ['attachment', 'attachments', 'attachment_type'] as const;
const LIDAR_ROOTS = new Set(['lidarannotation', 'lidarsegmentation']);

/** A definition as it will be created: the root's data item and, for lidar work, a reference to the root. */
function dependentBody(root: Task, def: DependentOptions['defs'][number]): Record<string, unknown> {
  const { type, ...params } = def;
  const shape = innerObject(findTaskType(type)?.createSchema ?? z.object({}))?.shape ?? {};
  const inherited = Object.fromEntries(
    INHERITED.filter((key) => key in shape && root.params[key] !== undefined).map((key) => [key, root.params[key]]),
  );
  const lidarTask = LIDAR_ROOTS.has(root.type) && 'lidar_task' in shape ? { lidar_task: root.task_id } : {};
  return { ...inherited, ...lidarTask, ...projectedCuboids(root, def), ...params };
}

/** A lidartopdown dependent of a completed lidarannotation root starts from its cuboids, seen from above. */
function projectedCuboids(root: Task, def: DependentOptions['defs'][number]): Record<string, unknown> {
  if (
    def.type !== 'lidartopdown' ||
    root.type !== 'lidarannotation' ||
    !root.response ||
    def.disable_cuboid_projection === true
  )
    return {};
  const polygon = (def.geometries as { polygon?: { objects_to_annotate?: LabelDescription[] } } | undefined)?.polygon;
  const attributes = Object.keys((def.annotation_attributes as Record<string, unknown> | undefined) ?? {});
  const projected = projectCuboidsFromAbove(
    root.response as LidarAnnotationResponse,
    polygon?.objects_to_annotate,
    attributes,
  );
  return projected.annotations.length > 0 ? { base_annotations: projected } : {};
}

/** `POST /v1/task/{id}/dependents/options`: only while the root is unfinished; each def checked as a creation request. */
export function setDependentOptions(tenant: Tenant, taskId: string, options: DependentOptions): TaskRecord {
  const record = requireTask(tenant, taskId);
  if (record.task.status !== 'pending')
    throw invalid(`Task ${taskId} is ${record.task.status}; dependent options can be set only while it is pending`);
  options.defs.forEach((def, index) => {
    const type = findTaskType(def.type);
    if (!type)
      throw invalid(
        `Parameter is invalid, reason: "defs[${index}].type" must be a task type (one of ${Object.keys(TASK_TYPES).join(', ')})`,
      );
    // Cross-task rules (a completed lidar_task, say) wait for creation: the root is not finished yet.
    let body: Record<string, unknown>;
    try {
      body = resolveCreation(tenant, type, dependentBody(record.task, def)).body;
    } catch (err) {
      if (err instanceof ApiError) throw new ApiError(err.kind, `In defs[${index}]: ${err.message}`);
      throw err;
    }
    parseOrThrow(type.createSchema, body, `defs[${index}]`);
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
  const ids = options.defs.map((def) => {
    const type = findTaskType(def.type);
    if (!type) throw invalid(`Dependent type "${def.type}" is not supported`);
    return createFromRequest(services, tenant, type, dependentBody(record.task, def)).record.task.task_id;
  });
  touch(tenant, record, (task) => {
    task.dependents = ids;
  });
}

/** `POST /v1/task/{id}/dependents/force_creation`: skips the audit; the root must be completed and the dependents not yet made. */
export function forceDependents(services: Services, tenant: Tenant, taskId: string): TaskRecord {
  const record = requireTask(tenant, taskId);
  const options = record.internal.dependents;
  if (!options)
    throw invalid(`Task ${taskId} has no dependent tasks defined (POST /v1/task/${taskId}/dependents/options first)`);
  if (record.task.status !== 'completed') {
    throw invalid(`Task ${taskId} is ${record.task.status}; dependents are created only for a completed task`);
  }
  if (options.created) throw invalid(`The dependent tasks of task ${taskId} exist already`);
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
        task.dependents_error = (err as Error).message;
      });
    }
  };
}
