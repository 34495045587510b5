import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { JsonObjectSchema, MetadataSchema } from '../common/metadata.js';
import { CallbackTargetSchema, TimestampSchema } from '../common/values.js';
import { ThreadSchema } from './threads.js';

/** v2 wire shapes of projects, batches and tasks: the same objects v1 shows, by id. */

export const IdSchema = extendApi(z.string(), { description: '24 hex digits', example: '6650a8f3c2b1d4e5f6a7b8c9' });
export const NextTokenSchema = extendApi(z.string().optional(), {
  description: 'Present while more pages follow: pass it as next_token to read the next one. Absent on the last page.',
});

export const V2ProjectSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    created_at: TimestampSchema,
    types: extendApi(z.array(z.string()).optional(), { description: "The project's task type" }),
    models: z.array(z.string()).optional(),
  })
  .strict();

/** v2's batch statuses: v1's three, and paused and cancelled (which v1 shows as in_progress and completed). */
export const V2BatchStatusSchema = z.enum(['staging', 'in_progress', 'completed', 'paused', 'cancelled']);
export type V2BatchStatus = z.infer<typeof V2BatchStatusSchema>;

export const expandable = <T extends z.ZodTypeAny>(object: T, what: string) =>
  extendApi(z.union([IdSchema, object]), { description: `The ${what}'s id, or the ${what} itself when expanded` });

export const V2BatchSchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    project: expandable(V2ProjectSchema, 'project'),
    created_at: TimestampSchema,
    completed_at: TimestampSchema.optional(),
    status: V2BatchStatusSchema,
    callback: z.string().optional(),
    metadata: z.record(z.unknown()),
  })
  .strict();

/** The kinds of task error v2 names (the Python client's ErrorType, scaleapi/scaleapi-python-client@b4111b2). */
export const V2ErrorTypeSchema = z.enum([
  'UNSUPPORTED_LANGUAGE',
  'LANGUAGE_MISMATCH',
  'PROMPT_LENGTH_EXCEEDED',
  'INVALID_CATEGORY',
  'PROMPT_INFEASIBLE',
]);
export type V2ErrorType = z.infer<typeof V2ErrorTypeSchema>;

export const V2TaskStatusSchema = z.enum(['pending', 'completed', 'canceled', 'error', 'deleted']);

export const V2TaskSchema = z
  .object({
    task_id: IdSchema,
    project: expandable(V2ProjectSchema, 'project'),
    batch: expandable(V2BatchSchema, 'batch').optional(),
    status: V2TaskStatusSchema,
    created_at: TimestampSchema,
    completed_at: TimestampSchema.optional(),
    metadata: z.record(z.unknown()).optional(),
    threads: extendApi(z.array(ThreadSchema), { description: 'Empty unless the task is completed' }),
    errors: z
      .array(z.object({ type: V2ErrorTypeSchema.optional(), message: z.string().optional() }).strict())
      .optional(),
  })
  .strict();

export const V2ProjectListSchema = z.object({ projects: z.array(V2ProjectSchema) }).strict();
export const V2BatchListSchema = z.object({ batches: z.array(V2BatchSchema), next_token: NextTokenSchema }).strict();
export const V2TaskListSchema = z.object({ tasks: z.array(V2TaskSchema), next_token: NextTokenSchema }).strict();

/** pause, resume and cancel answer the batch with a sentence; finalize answers the bare batch. */
export const V2BatchOperationResultSchema = z.object({ batch: V2BatchSchema, message: z.string() }).strict();

const optionalText = z.string().min(1).optional();

/** Names a batch by id or by name (exactly one). */
export const V2BatchSelectorSchema = extendApi(
  z.object({ batch_id: optionalText, batch_name: optionalText }).strict(),
  { description: 'The batch, by batch_id or batch_name (both when they agree)' },
);

export const V2CreateBatchBodySchema = extendApi(
  z
    .object({
      name: z.string().min(1).max(512),
      project_id: optionalText,
      project_name: optionalText,
      project: extendApi(optionalText, {
        description:
          "The project's id or name: what the docs' curl example of this route sends; project_id or project_name " +
          '(what the Python client sends) say which',
      }),
      callback: CallbackTargetSchema.optional(),
      staging_batch: extendApi(z.boolean().optional(), {
        description: 'true: the batch starts in staging (finalize it to start); default: in_progress',
      }),
      metadata: MetadataSchema.optional(),
    })
    .strict(),
  { description: 'A new batch: its name and project (by project_id or project_name)' },
);

/** v2's metadata `merge` (domain/common/metadata.ts deepMergeMetadata). */
const MergeFlagSchema = extendApi(z.boolean().optional(), {
  description:
    'true: deep merge (objects merge key by key at every depth; other values, arrays included, replace); ' +
    'false (default): the metadata is replaced',
});

export const V2BatchMetadataBodySchema = extendApi(
  z
    .object({
      batch_id: optionalText,
      batch_name: optionalText,
      metadata: MetadataSchema,
      merge: MergeFlagSchema,
    })
    .strict(),
  { description: 'The batch (by id or name) and its new metadata; merge: true deep-merges' },
);

export const V2TaskMetadataBodySchema = extendApi(
  z
    .object({
      task_id: z.string().min(1),
      metadata: MetadataSchema,
      merge: MergeFlagSchema,
    })
    .strict(),
  { description: 'The task and its new metadata; merge: true deep-merges' },
);

export const V2ChatTaskBodySchema = extendApi(
  z
    .object({
      project_id: optionalText,
      project_name: optionalText,
      batch_id: optionalText,
      batch_name: optionalText,
      template_variables: extendApi(JsonObjectSchema.optional(), {
        description: "The chat template's variables (the task's params.template_variables in v1)",
      }),
      metadata: MetadataSchema.optional(),
      callback_url: CallbackTargetSchema.optional(),
      unique_id: extendApi(optionalText, {
        description: 'Your own identifier of the task, unique across the account: a second task with it is a 409',
      }),
    })
    .strict(),
  {
    description:
      'A chat task: its project (by id or name) or batch, template variables, metadata, callback_url, unique_id',
  },
);
