import { z } from 'zod';
import { TimestampSchema } from '../common/values.js';

/** The delivery journal of /_mock/callbacks: every callback and each attempt to deliver it. */

/** A receiver took a callback: any 2xx (real-service-notes: a 204 or 202 is not retried). */
export const isDelivered = (statusCode: number | undefined): boolean =>
  statusCode !== undefined && statusCode >= 200 && statusCode < 300;

const CallbackAttemptSchema = z.object({
  attempt: z.number().int(),
  /** Virtual-clock time the attempt started. */
  at: TimestampSchema,
  status_code: z.number().int().optional(),
  error: z.string().optional(),
  duration_ms: z.number().int(),
});

const CallbackDeliverySchema = z.object({
  id: z.string(),
  /** task callbacks carry task_id, batch callbacks batch. */
  task_id: z.string().optional(),
  batch: z.string().optional(),
  /** recalled: a completed task sent back to pending (redo), as the real service recalls tasks. */
  event: z.enum(['completed', 'error', 'audit', 'recalled', 'batch_completed']),
  target: z.string(),
  /**
   * pending: attempts remain; succeeded: a 2xx came back; failed: every attempt failed; recorded: an
   * e-mail target, never sent.
   */
  state: z.enum(['pending', 'succeeded', 'failed', 'recorded']),
  created_at: TimestampSchema,
  next_attempt_at: TimestampSchema.optional(),
  headers: z.record(z.string()),
  body: z.record(z.unknown()),
  attempts: z.array(CallbackAttemptSchema),
});
export type CallbackDelivery = z.infer<typeof CallbackDeliverySchema>;

export const CallbackJournalSchema = z.object({ deliveries: z.array(CallbackDeliverySchema) });
