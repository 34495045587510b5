import { z } from 'zod';
import { CallbackTargetSchema, MetadataSchema, TagsSchema, TaskPrioritySchema } from '../common/values.js';

/**
 * Parameters every creation endpoint takes. They are kept on the task object itself, not in
 * `params`; everything else a type adds goes to `params`.
 */
export const CommonCreateShape = {
  project: z.string().min(1).optional(),
  batch: z.string().min(1).optional(),
  instruction: z.string().optional(),
  callback_url: CallbackTargetSchema.optional(),
  /** Alias of callback_url in several of the interface's parameter lists. */
  callback: CallbackTargetSchema.optional(),
  metadata: MetadataSchema.optional(),
  priority: TaskPrioritySchema.optional(),
  unique_id: z.string().min(1).optional(),
  clear_unique_id_on_error: z.boolean().optional(),
  tags: TagsSchema.optional(),
  /** An older project parameter version to inherit; -1 inherits none. */
  project_version: z.number().int().min(-1).optional(),
  /** The interface also names it so, and client code in the wild sends it: an alias of project_version. */
  project_param_version: z.number().int().min(-1).optional(),
};

const COMMON_CREATE_KEYS: ReadonlySet<string> = new Set(Object.keys(CommonCreateShape));

const CommonCreateSchema = z.object(CommonCreateShape);
type CommonCreate = z.infer<typeof CommonCreateSchema>;

/** A validated creation body split into the task-level fields and the type's `params`. */
export interface CreateBodyParts {
  common: CommonCreate;
  params: Record<string, unknown>;
}

/** Splits a validated creation body into the task-level fields and the type's `params`. */
export function splitCreateBody(body: Record<string, unknown>): CreateBodyParts {
  const common: Record<string, unknown> = {};
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (COMMON_CREATE_KEYS.has(key)) common[key] = value;
    else params[key] = value;
  }
  // Asserted, not parsed: every caller passes a body its type's creation schema produced (that schema
  // extends CommonCreateShape, with no transform), and a parse here ran zod again on each create.
  return { common: common as CommonCreate, params };
}

export const PaddingShape = {
  padding: z.number().int().min(0).optional(),
  paddingX: z.number().int().min(0).optional(),
  paddingY: z.number().int().min(0).optional(),
};

export const BaseAnnotationPermissionShape = {
  can_add_base_annotations: z.boolean().optional(),
  can_edit_base_annotations: z.boolean().optional(),
  can_edit_base_annotation_labels: z.boolean().optional(),
  can_delete_base_annotations: z.boolean().optional(),
};
