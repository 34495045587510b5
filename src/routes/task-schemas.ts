import { z } from 'zod';
import { MetadataBodySchema, TagSchema } from '../domain/common/values.js';
import { ReviewStatusSchema, TaskStatusSchema } from '../domain/tasks/task.js';
import { queryBoolean, queryInt, queryList, queryString, queryTime, queryTimeEnd } from '../http/query.js';

/** Request shapes of the task maintenance routes. */

export const TaskIdParamsSchema = z.object({ taskId: z.string() });

const enumList = (schema: z.ZodEnum<[string, ...string[]]>) =>
  queryList.superRefine((values, ctx) => {
    for (const value of values ?? []) {
      if (!schema.options.includes(value)) {
        ctx.addIssue({ code: 'custom', message: `must be one of ${schema.options.join(', ')} (got "${value}")` });
      }
    }
  });

/** Repeated keys only: names, ids and tags may themselves contain commas. */
const repeatedList = z.preprocess((v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).filter((s) => s !== '')), z.array(z.string()).optional());

export const TaskListQuerySchema = z.object({
  status: enumList(TaskStatusSchema),
  type: queryList,
  project: repeatedList,
  batch: repeatedList,
  customer_review_status: enumList(ReviewStatusSchema),
  unique_id: repeatedList,
  tags: repeatedList,
  start_time: queryTime,
  end_time: queryTimeEnd,
  completed_after: queryTime,
  completed_before: queryTimeEnd,
  updated_after: queryTime,
  updated_before: queryTimeEnd,
  limit: queryInt(1, 100),
  next_token: queryString,
  include_attachment_url: queryBoolean,
  limited_response: queryBoolean,
});

export const CancelQuerySchema = z.object({ clear_unique_id: queryBoolean });

export const SetMetadataBodySchema = MetadataBodySchema;

export const UniqueIdBodySchema = z.object({ unique_id: z.string().min(1) }).strict();

export const TagsBodySchema = z.array(TagSchema);

export const AuditBodySchema = z.object({ accepted: z.boolean(), comments: z.string().nullable().optional() }).strict();
