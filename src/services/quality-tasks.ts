import type { Lenience } from '../domain/lenience.js';
import { QUALITY_TASK_TYPES, type QualityTask, type QualityTaskKind } from '../domain/quality/quality-tasks.js';
import { splitCreateBody } from '../domain/tasks/common-params.js';
import { findTaskType } from '../domain/tasks/registry.js';
import { parseOrThrow } from '../domain/validate.js';
import { invalidParameter } from '../errors/index.js';
import type { Tenant } from '../store/tenant.js';
import { validateResponseFor } from './completion.js';
import type { Services } from './context.js';
import { checkFileAttachments } from './file-attachments.js';
import { requireUsableProject } from './projects.js';
import { resolveCreation } from './task-inheritance.js';
import { buildTask, checkTypeRules } from './tasks.js';

/**
 * Creates an evaluation or training task: the body is a creation request of the type (checked as
 * one, project defaults included) for a rapid project, plus the answer taskers should give, checked
 * against the type's response shape and the task's own parameters. No labeling task is created.
 */
export function createQualityTask(
  services: Services,
  tenant: Tenant,
  kind: QualityTaskKind,
  type: string,
  body: Record<string, unknown>,
  lenience?: Lenience,
): QualityTask {
  const def = (QUALITY_TASK_TYPES as readonly string[]).includes(type) ? findTaskType(type) : undefined;
  if (!def)
    throw invalidParameter('type', `must be one of ${QUALITY_TASK_TYPES.join(', ')} for ${kind} tasks (got "${type}")`);
  const { expected_response, initial_response, ...request } = body;
  if (expected_response === undefined)
    throw invalidParameter('expected_response', "is required (the answer in the type's response shape)");
  if (initial_response !== undefined && kind !== 'evaluation')
    throw invalidParameter('initial_response', 'is only allowed on evaluation tasks');
  if (typeof request.project !== 'string')
    throw invalidParameter('project', `is required (${kind} tasks belong to a rapid project)`);
  const { project } = requireUsableProject(tenant, request.project);
  if (!project.rapid)
    throw invalidParameter(
      'project',
      `names project "${project.name}", which is not a rapid project; ${kind} tasks exist for rapid projects only`,
    );

  const resolved = resolveCreation(tenant, def, request, { batchOptional: true });
  const valid = parseOrThrow(def.createSchema, resolved.body, '', lenience) as Record<string, unknown>;
  checkFileAttachments(tenant, valid);
  const split = splitCreateBody(valid);
  checkTypeRules(tenant, def, split.params);
  const nowMs = tenant.stamp();
  const task = buildTask(tenant, services.ids.next(), def, split, resolved.projectParamVersion, nowMs);
  const expected = validateResponseFor(task, expected_response, 'expected_response');
  const initial =
    initial_response === undefined ? undefined : validateResponseFor(task, initial_response, 'initial_response');
  const quality: QualityTask = {
    id: task.task_id,
    kind,
    type: def.type,
    project: project.name,
    ...(task.instruction !== undefined && { instruction: task.instruction }),
    params: task.params,
    expected_response: expected,
    ...(initial !== undefined && { initial_response: initial }),
    created_at: task.created_at,
  };
  tenant.qualityTasks.add(quality);
  return quality;
}
