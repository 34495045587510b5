import { z } from 'zod';
import { BatchSchema } from '../domain/batches/schemas.js';
import { ClockOffsetSchema } from '../domain/clock-bounds.js';
import { StateFilesSchema } from '../domain/files/state.js';
import { ProjectSchema } from '../domain/projects/schemas.js';
import { QualityTaskSchema } from '../domain/quality/quality-tasks.js';
import { SettingsSchema } from '../domain/settings.js';
import { TaskSchema } from '../domain/tasks/task.js';
import { teamStateFields } from '../domain/teams/state.js';

/** Wire shapes of the /_mock control plane. */

export const CompleteBodySchema = z
  .object({ response: z.record(z.unknown()).optional() })
  .strict()
  .optional()
  .transform((body) => body ?? {});

export const FailBodySchema = z
  .object({ error: z.string().min(1).optional() })
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

export { SettingsPatchSchema, SettingsSchema } from '../domain/settings.js';

export const ResetResultSchema = z.object({ result: z.literal('success') });

/** Exports made before every task carried a review status lack it on unreviewed tasks: they are pending. */
const ImportedTaskSchema = z.preprocess(
  (task) =>
    task && typeof task === 'object' && !('customer_review_status' in task)
      ? { ...task, customer_review_status: 'pending' }
      : task,
  TaskSchema,
);

export const StateTaskSchema = z
  .object({
    task: ImportedTaskSchema,
    clear_unique_id_on_error: z.boolean().optional(),
    dependent_options: z
      .object({
        defs: z.array(z.object({ type: z.string() }).passthrough()),
        require_audit: z.boolean(),
        created: z.boolean(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const StateSchema = z
  .object({
    format: z.literal('labelmock-state/1'),
    clock_offset_ms: ClockOffsetSchema,
    settings: SettingsSchema,
    projects: z.array(ProjectSchema).default([]),
    batches: z.array(BatchSchema).default([]),
    tasks: z.array(StateTaskSchema),
    files: StateFilesSchema.default([]),
    ...teamStateFields,
    quality_tasks: z.array(QualityTaskSchema).default([]),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;

/** `GET /_mock/health`: for a readiness probe or a script waiting for the mock to be up. */
export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    /** The labelmock package version. */
    version: z.string(),
    /** Whole seconds since the app was created. */
    uptime_s: z.number().int().min(0),
  })
  .strict();
