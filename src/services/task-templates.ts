import type { z } from 'zod';
import { latestParamVersion } from '../domain/projects/params.js';
import type { TaskTemplateSchema } from '../domain/quality/quality-tasks.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { wrongState } from '../errors/index.js';
import { derivedId } from '../runtime/ids.js';
import type { Tenant } from '../store/tenant.js';
import { requireProject } from './projects.js';

/** The official Python client's docs: only text collection and chat projects have task templates. */
const TEMPLATE_TYPES = ['textcollection', ...Object.values(TASK_TYPES).flatMap((def) => (def.chat ? [def.type] : []))];

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

/**
 * A project's task template, derived from the project: its version is the current parameter
 * version, and its variables are the `{{name}}` placeholders of the current instruction.
 */
export function taskTemplate(tenant: Tenant, name: string): z.infer<typeof TaskTemplateSchema> {
  const { project } = requireProject(tenant, name);
  if (!TEMPLATE_TYPES.includes(project.type)) {
    throw wrongState(
      `Project "${project.name}"`,
      `has type ${project.type}`,
      `task templates exist for ${TEMPLATE_TYPES.join(', ')} projects only`,
    );
  }
  const latest = latestParamVersion(project);
  const instruction = typeof latest?.instruction === 'string' ? latest.instruction : '';
  const variables = [...instruction.matchAll(PLACEHOLDER)].map((m) => m[1]);
  return {
    id: derivedId(tenant.account, 'task-template', project.name),
    project: project.name,
    version: latest?.version ?? 0,
    created_at: project.created_at,
    updated_at: latest?.created_at ?? project.created_at,
    template_variables: Object.fromEntries(variables.map((v) => [v, null])),
  };
}
