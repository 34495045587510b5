import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { IsoTimestampSchema } from '../common/stored-values.js';
import { EmailSchema } from '../teams/schemas.js';

/** Wire shapes of training (quality task) attempts. */

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
