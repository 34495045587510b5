import { entryParams, joinInstructions, latestParamVersion } from '../domain/projects/params.js';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';
import { invalidParameter } from '../errors/index.js';
import type { Tenant } from '../store/tenant.js';
import { assertBatchTakesTasks, requireUsableBatch } from './batches.js';
import { requireUsableProject } from './projects.js';

export interface ResolvedCreation {
  /** The request merged with the project version's defaults: what the type's schema validates. */
  body: Record<string, unknown>;
  /** The version applied, or null when none was (no project, no version, or project_version -1). */
  projectParamVersion: number | null;
}

/**
 * Applies project and batch to a creation request: the batch implies its project; the project's
 * latest (or requested) parameter version fills what the task leaves out; task values win, except
 * instruction, which is the task's followed by the project's.
 */
export function resolveCreation(
  tenant: Tenant,
  def: TaskTypeDefinition,
  body: Record<string, unknown>,
  /** Quality (evaluation, training) tasks belong to a rapid project without joining a batch. */
  { batchOptional = false } = {},
): ResolvedCreation {
  const batchName = typeof body.batch === 'string' ? body.batch : undefined;
  const batch = batchName === undefined ? undefined : requireUsableBatch(tenant, batchName);
  if (batch) assertBatchTakesTasks(batch, 'batch');
  if (batch && typeof body.project === 'string' && body.project !== batch.batch.project) {
    throw invalidParameter(
      'project',
      `is "${body.project}" but batch "${batchName}" belongs to project "${batch.batch.project}"`,
    );
  }
  const projectName = typeof body.project === 'string' ? body.project : batch?.batch.project;
  if (projectName === undefined) {
    if (typeof (body.project_version ?? body.project_param_version) === 'number')
      throw invalidParameter('project_version', 'needs a project (or a batch)');
    return { body, projectParamVersion: null };
  }

  const { project } = requireUsableProject(tenant, projectName);
  if (project.type !== def.type) {
    throw invalidParameter(
      'project',
      `names project "${projectName}" of type ${project.type}; this endpoint creates ${def.type} tasks`,
    );
  }
  if (project.rapid && !batch && !batchOptional)
    throw invalidParameter('batch', `is required for tasks of rapid project "${projectName}"`);

  const requested = body.project_version ?? body.project_param_version;
  const entry =
    typeof requested === 'number'
      ? requested === -1
        ? undefined
        : project.param_history.find((e) => e.version === requested)
      : latestParamVersion(project);
  if (typeof requested === 'number' && requested !== -1 && !entry) {
    throw invalidParameter(
      'project_version',
      `${requested} does not exist in project "${projectName}" ` +
        `(versions: ${project.param_history.map((e) => e.version).join(', ') || 'none'})`,
    );
  }
  const defaults = entryParams(entry);
  const instruction = joinInstructions(body.instruction, defaults.instruction);
  return {
    body: {
      ...defaults,
      ...body,
      project: projectName,
      ...(instruction !== undefined && { instruction }),
    },
    projectParamVersion: entry?.version ?? null,
  };
}
