import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { V2ErrorTypeSchema } from '../v2/objects.js';
import { ThreadsInputSchema } from '../v2/threads.js';
import { ShardIdSchema } from './shard.js';

/** Wire shapes of the /_mock control plane. */

export const CompleteBodySchema = z
  .object({
    response: z.record(z.unknown()).optional(),
    threads: extendApi(ThreadsInputSchema.optional(), {
      description: 'The v2 threads GET /v2/task answers for the task (default: synthesized from the task)',
    }),
  })
  .strict()
  .optional()
  .transform((body) => body ?? {});

export const FailBodySchema = z
  .object({
    error: z.string().min(1).optional(),
    type: extendApi(V2ErrorTypeSchema.optional(), { description: 'The kind of error, shown by v2 as errors[].type' }),
  })
  .strict()
  .optional()
  .transform((body) => body ?? {});

export const ReviewerAuditBodySchema = z
  .object({
    result: z.enum(['accepted', 'fixed']),
    response: z.record(z.unknown()).optional(),
    comments: z.string().optional(),
  })
  .strict()
  .refine((body) => body.result === 'fixed' || body.response === undefined, {
    path: ['response'],
    message: 'is only allowed with result fixed',
  });

export const ClockSchema = z.object({
  now: z.string(),
  now_ms: z.number().int(),
  offset_ms: z.number().int(),
});

export const ClockAdvanceBodySchema = z
  .object({
    ms: z
      .number()
      .int()
      .min(0)
      .max(10 * 365 * 86_400_000),
  })
  .strict();

export const ClockAdvanceResultSchema = ClockSchema.extend({ jobs_run: z.number().int() });

export { SettingsPatchSchema, SettingsSchema } from '../settings.js';

export const ResetResultSchema = z.object({ result: z.literal('success') });

export { StateSchema } from '../state/schema.js';

/** `GET /_mock/health`: for a readiness probe or a script waiting for the mock to be up. */
export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    /** The labelmock package version. */
    version: z.string(),
    /** Whole seconds since the app was created. */
    uptime_s: z.number().int().min(0),
    /**
     * Whether this process validates through the bin's ZodEffects fast path (src/zod-effects-fix.ts): true in
     * the bin, `npm start`, the image and the pytest plugin; false in an app made by a library import (its
     * user's zod is left alone). False in the bin means slower validation and more memory.
     */
    fast_validation: z.boolean(),
    /** This process's name behind a router (--shard-id); null for a lone server. */
    shard: ShardIdSchema.nullable(),
  })
  .strict();
