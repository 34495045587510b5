import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { TimestampSchema } from '../common/values.js';

/**
 * Scheduled work as data: each job a tenant's virtual clock will run, named by what it does and
 * the ids it acts on, never by a closure, so an export carries it and an import restores it.
 */

const DueAtSchema = extendApi(TimestampSchema, { description: "When the job runs (the tenant's virtual clock)" });

/** A delayed completion (settings completion mode `delay`): completes the task if it is still pending. */
const CompleteTaskJobSchema = z
  .object({ kind: z.literal('complete_task'), task_id: z.string(), due_at: DueAtSchema })
  .strict();

/** One attempt to deliver a journaled callback (the first one, or a retry). */
const DeliverCallbackJobSchema = z
  .object({
    kind: z.literal('deliver_callback'),
    /** A delivery of the callback journal (`callbacks[].id`). */
    delivery_id: z.string(),
    /** Which attempt this is, counting from 1. */
    attempt: z.number().int().min(1),
    due_at: DueAtSchema,
  })
  .strict();

export const ScheduledJobSchema = z.discriminatedUnion('kind', [CompleteTaskJobSchema, DeliverCallbackJobSchema]);
export type ScheduledJob = z.infer<typeof ScheduledJobSchema>;
export type JobOf<K extends ScheduledJob['kind']> = Extract<ScheduledJob, { kind: K }>;
