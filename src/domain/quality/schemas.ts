import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { EmailSchema } from '../teams/schemas.js';

/** Wire shapes of training (quality task) attempts. */

/**
 * What `format: date-time` (RFC 3339) accepts, as the documents say: Date.parse alone took " 1 " for
 * the year 2001, and the attempt then answered that text as its created_at.
 */
const IsoTimestampSchema = extendApi(
  z.string().datetime({ offset: true, message: 'must be an ISO 8601 timestamp, e.g. 2026-01-01T00:00:00.000Z' }),
  { format: 'date-time', description: 'ISO 8601 with an offset (RFC 3339)', example: '2026-01-01T00:00:00.000Z' },
);

const attemptFields = {
  quality_task_id: z.string().min(1),
  labeler_email: EmailSchema,
  project: z.string().optional(),
  /** How the attempt was graded, when it was: 0 to 1. */
  score: z.number().min(0).max(1).optional(),
  passed: z.boolean().optional(),
};

/** One labeler's attempt at a quality (training) task. Extra fields given when seeding are kept. */
export const TrainingAttemptSchema = extendApi(
  z.object({ ...attemptFields, created_at: IsoTimestampSchema }).passthrough(),
  {
    description: "A labeler's attempt at a quality task; fields seeded beyond these are kept as given",
  },
);
export type TrainingAttempt = z.infer<typeof TrainingAttemptSchema>;

export const TrainingAttemptListSchema = z.object({
  docs: z.array(TrainingAttemptSchema),
  limit: z.number().int(),
  has_more: z.boolean(),
  next_token: z.string().nullable(),
});

/** `POST /_mock/quality/attempts`: record attempts (created_at defaults to the tenant's clock). */
export const RecordAttemptsBodySchema = z
  .object({
    attempts: z
      .array(z.object({ ...attemptFields, created_at: IsoTimestampSchema.optional() }).passthrough())
      .min(1)
      .max(1000),
  })
  .strict();
