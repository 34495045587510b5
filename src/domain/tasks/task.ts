import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { StoredMetadataSchema } from '../common/metadata.js';
import { TaskIdSchema, TimestampSchema } from '../common/values.js';

export const TaskStatusSchema = z.enum(['pending', 'completed', 'canceled', 'error']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

export const ReviewStatusSchema = z.enum(['pending', 'accepted', 'fixed', 'rejected']);

export const AuditSchema = z.object({
  audited_by: z.string(),
  audited_at: TimestampSchema,
  audit_time_secs: z.number(),
  audit_result: z.string(),
  audit_source: z.string(),
});

/** The task object as the interface's Task table describes it. Optional keys appear only when they apply. */
export const TaskSchema = extendApi(
  z
    .object({
      task_id: TaskIdSchema,
      type: z.string(),
      status: TaskStatusSchema,
      instruction: z.string().optional(),
      params: z.record(z.unknown()),
      response: z.record(z.unknown()).optional(),
      created_at: TimestampSchema,
      updated_at: TimestampSchema,
      completed_at: TimestampSchema.optional(),
      callback_url: z.string().optional(),
      // Current documents say callback_succeeded, older ones callback_completed: both are sent.
      callback_succeeded: z.boolean(),
      callback_completed: z.boolean(),
      // On every task from creation: pending until a review decides.
      customer_review_status: extendApi(ReviewStatusSchema, {
        description:
          'On every task from creation: pending until a review decides ' +
          "(accepted, rejected, or fixed by the service's reviewers); " +
          'a redo sets it back to pending',
      }),
      customer_review_comments: z.array(z.string()).optional(),
      times_redone: z.number().int().optional(),
      metadata: StoredMetadataSchema,
      project_param_version: z.number().int().nullable(),
      project: z.string().optional(),
      batch: z.string().optional(),
      audits: z.array(AuditSchema),
      unique_id: z.string().optional(),
      tags: z.array(z.string()).optional(),
      priority: z.number().int().optional(),
      is_test: z.boolean(),
      urgency: z.string(),
      work_started: z.boolean(),
      processed_attachments: z
        .array(z.unknown())
        .optional()
        .describe(
          "Attachments the service derived from the task's (empty in every recorded task); absent on imported tasks.",
        ),
      error: z.string().optional(),
      /** Ids of the dependent tasks created from this root (empty until they are). */
      dependents: z.array(z.string()).optional(),
      /** Why the dependents could not be created, when that happened. */
      dependents_error: z.string().optional(),
    })
    .passthrough(),
  { description: 'A task: one unit of labeling work' },
);
export type Task = z.infer<typeof TaskSchema>;

/**
 * The slim document that `limited_response=true` lists return: these keys and no other, so a full
 * task (which has `type`, `params`, ...) never matches it and a list item is one or the other.
 */
export const LimitedTaskSchema = extendApi(
  TaskSchema.pick({ task_id: true, status: true, metadata: true, project: true }).strict(),
  { description: 'A task as `limited_response=true` lists it: only these keys' },
);

export const TaskListSchema = z.object({
  docs: z.array(z.union([TaskSchema, LimitedTaskSchema])),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
  next_token: z.string().nullable(),
});
export type TaskList = z.infer<typeof TaskListSchema>;
