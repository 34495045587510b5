import { z } from 'zod';
import { TimestampSchema } from '../common/values.js';
import { TaskStatusSchema } from '../tasks/task.js';

/** GET /_mock/tasks/{taskId}/timeline: what happened to one task, in order, on the tenant's virtual clock. */

/** Requests of the journal a timeline shows at most: the latest that touched the task. */
export const TIMELINE_REQUESTS = 100;
/** Changes after its creation a task keeps at most, the latest (store/task-life.ts): bounded memory per task. */
export const MAX_LIFE_ENTRIES = 50;
/** Audits a timeline shows at most: the latest. */
export const TIMELINE_AUDITS = 50;

const time = TimestampSchema.describe("When it happened, on the tenant's virtual clock.");

const ChangeEntrySchema = z
  .object({ kind: z.enum(['created', 'completed', 'redone', 'canceled']), time })
  .strict()
  .describe('The task was created, completed, sent back to pending (a redo) or canceled.');

const ErrorEntrySchema = z
  .object({ kind: z.literal('error'), time, error: z.string().optional().describe("The task's error message.") })
  .strict()
  .describe('The task moved to status error.');

const AuditEntrySchema = z
  .object({
    kind: z.literal('audited'),
    time,
    audit_result: z.string(),
    audited_by: z.string(),
    audit_source: z.string(),
  })
  .strict()
  .describe('An audit of the task (from its audits).');

const CallbackQueuedEntrySchema = z
  .object({
    kind: z.literal('callback_queued'),
    time,
    delivery_id: z.string().describe('The delivery in GET /_mock/callbacks.'),
    event: z.string().describe('What the callback tells: completed, error, audit, recalled.'),
    target: z.string(),
    state: z.enum(['pending', 'succeeded', 'failed', 'recorded']).describe('The delivery now.'),
  })
  .strict()
  .describe('A callback was journaled for delivery (an e-mail target is recorded, never sent).');

const CallbackAttemptEntrySchema = z
  .object({
    kind: z.literal('callback_attempt'),
    time: TimestampSchema.describe("When the attempt started, on the tenant's virtual clock."),
    delivery_id: z.string(),
    attempt: z.number().int().min(1),
    status_code: z.number().int().optional().describe("The receiver's answer; absent when none came."),
    error: z.string().optional(),
    duration_ms: z.number().int().min(0).describe('Real time the attempt took.'),
    outcome: z
      .enum(['delivered', 'retried', 'retry_scheduled', 'gave_up'])
      .describe(
        'delivered: a 2xx came back; retried: a later attempt followed; retry_scheduled: the next attempt is due ' +
          'at `retry_at`; gave_up: it was the last attempt allowed.',
      ),
    retry_at: TimestampSchema.optional().describe('With retry_scheduled: when the next attempt is due.'),
  })
  .strict()
  .describe('One attempt to deliver a callback.');

const RequestEntrySchema = z
  .object({
    kind: z.literal('request'),
    time: TimestampSchema.describe("When the answer was ready, on the tenant's virtual clock."),
    request_id: z.string().describe('The entry in GET /_mock/requests.'),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
    duration_ms: z.number().min(0),
  })
  .strict()
  .describe('A request of the journal that touched the task: its path names the task, or its answer holds it.');

const TimelineEntrySchema = z.discriminatedUnion('kind', [
  ChangeEntrySchema,
  ErrorEntrySchema,
  AuditEntrySchema,
  CallbackQueuedEntrySchema,
  CallbackAttemptEntrySchema,
  RequestEntrySchema,
]);
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

export const TaskTimelineSchema = z
  .object({
    task_id: z.string(),
    status: TaskStatusSchema,
    entries: z.array(TimelineEntrySchema).describe('Oldest first.'),
    rebuilt: z
      .boolean()
      .describe(
        'The task was restored from --data-dir or imported: what happened before is what its fields told then ' +
          '(its latest completion, cancel or error), not every change.',
      ),
    left_out: z
      .number()
      .int()
      .min(0)
      .describe(
        `Changes and audits left out at the start: a task keeps its latest ${MAX_LIFE_ENTRIES} changes, and the ` +
          `timeline shows its latest ${TIMELINE_AUDITS} audits and ${TIMELINE_REQUESTS} requests (of what the ` +
          'request journal keeps).',
      ),
  })
  .strict();
export type TaskTimeline = z.infer<typeof TaskTimelineSchema>;
