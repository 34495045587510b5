import { type ZodTypeAny, z } from 'zod';
import type { TaskTypeDefinition } from '../tasks/type-definition.js';
import type { Project } from './schemas.js';

/** Task-level keys that make no sense as project defaults. */
const NOT_PROJECT_PARAMS = ['project', 'batch', 'unique_id', 'project_version', 'project_param_version'] as const;

export function innerObject(schema: ZodTypeAny): z.AnyZodObject | undefined {
  let current: ZodTypeAny = schema;
  while (current instanceof z.ZodEffects) current = current.innerType();
  return current instanceof z.ZodObject ? current : undefined;
}

/**
 * Project parameters are default task parameters: each is checked as the type's creation schema
 * checks it, but none is required (a task may bring the rest) and cross-field rules wait for the
 * task, when the whole set is known.
 */
export function projectParamsSchema(def: TaskTypeDefinition): ZodTypeAny {
  const object = innerObject(def.createSchema);
  if (!object) return z.record(z.unknown());
  const omit = Object.fromEntries(
    NOT_PROJECT_PARAMS.filter((key) => key in object.shape).map((key) => [key, true as const]),
  );
  return object.omit(omit).partial();
}

/** The parameters of a param_history entry: everything but its bookkeeping fields. */
export function entryParams(entry: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!entry) return {};
  const { version: _v, created_at: _c, ...params } = entry;
  return params;
}

/** Task instruction first, then the project's (the interface's rule for instruction). */
export function joinInstructions(task: unknown, project: unknown): string | undefined {
  const parts = [task, project].filter((part): part is string => typeof part === 'string' && part !== '');
  return parts.length > 0 ? parts.join('\n\n') : typeof task === 'string' ? task : undefined;
}

/** A project's newest parameter version (what a task inherits unless it names one), if it has any. */
export const latestParamVersion = (project: { readonly param_history: readonly Project['param_history'][number][] }) =>
  project.param_history.at(-1);
