import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { boundedArray } from '../domain/common/bounded.js';
import { MAX_TAGS_BODY } from '../domain/common/input-limits.js';
import { MetadataBodySchema, TagSchema } from '../domain/common/values.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { ReviewStatusSchema, TaskStatusSchema } from '../domain/tasks/task.js';
import { queryBoolean, queryInt, queryList, queryString, queryTime, queryTimeEnd } from '../http/query.js';
import { enumItem, queryListOf } from '../openapi/parameters.js';

/** Request shapes of the task maintenance routes. */

export const TaskIdParamsSchema = z.object({ taskId: z.string() });

/**
 * The review statuses a list may filter by: a task's, plus `commented`, which the official Python client offers
 * (TaskReviewStatus.Commented, scaleapi/scaleapi-python-client@b4111b2 scaleapi/tasks.py). No task here is ever
 * commented, so it matches none; refusing it would fail a client call the real service answers.
 */
const ReviewStatusFilterSchema = z.enum([...ReviewStatusSchema.options, 'commented']);

const enumList = (schema: z.ZodEnum<[string, ...string[]]>, joined = false) =>
  extendApi(
    queryList.superRefine((values, ctx) => {
      for (const value of values ?? []) {
        if (!schema.options.includes(value)) {
          ctx.addIssue({ code: 'custom', message: `must be one of ${schema.options.join(', ')} (got "${value}")` });
        }
      }
    }),
    queryListOf(enumItem(schema.options, joined), 'Repeat the key (or join values with commas); matches any of them'),
  );

/** Repeated keys only: names, ids and tags may themselves contain commas. */
const repeatedList = (what: string) =>
  extendApi(
    z.preprocess(
      (v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).filter((s) => s !== '')),
      z.array(z.string()).optional(),
    ),
    queryListOf({ type: 'string' }, `One ${what}, or the key repeated for several (a comma is part of the value)`),
  );

export const TaskListQuerySchema = z
  .object({
    status: enumList(TaskStatusSchema),
    // Every stored task has a known type (an import refuses others): an unknown one is a misspelling, a 400.
    type: enumList(z.enum(Object.keys(TASK_TYPES) as [string, ...string[]])),
    project: repeatedList('project name'),
    batch: repeatedList('batch name'),
    // The Python client joins a list of review statuses with commas: the document says so (openapi/parameters.ts).
    customer_review_status: enumList(ReviewStatusFilterSchema, true),
    unique_id: repeatedList('unique_id'),
    tags: repeatedList('tag'),
    start_time: queryTime,
    end_time: queryTimeEnd,
    completed_after: queryTime,
    completed_before: queryTimeEnd,
    updated_after: queryTime,
    updated_before: queryTimeEnd,
    limit: queryInt(1, 100),
    // The Node SDK pages by offset; the Python client by next_token. Either works, not both at once.
    offset: extendApi(queryInt(0, 1_000_000_000), {
      description: 'Skip this many of the matching tasks, newest first (the Node SDK pages so); not with next_token',
    }),
    next_token: queryString,
    include_attachment_url: queryBoolean,
    limited_response: queryBoolean,
  })
  // A misspelt filter silently ignored would list the wrong tasks: unknown keys are named in a 400
  // (the Node SDK's own tests expect `?bogus=0` to be refused).
  .strict();

export const CancelQuerySchema = z.object({ clear_unique_id: queryBoolean });

export const SetMetadataBodySchema = MetadataBodySchema;

export const UniqueIdBodySchema = z.object({ unique_id: z.string().min(1) }).strict();

/**
 * A task keeps at most 5 tags, but a body may repeat some or name absent ones to remove, so the
 * body's own bound is looser; it is counted before each tag is checked (bounded.ts).
 */
export const TagsBodySchema = boundedArray(TagSchema, { max: MAX_TAGS_BODY });

export const AuditBodySchema = z.object({ accepted: z.boolean(), comments: z.string().nullable().optional() }).strict();
