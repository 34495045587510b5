import { z } from 'zod';
import { CompletionModeSchema } from '../config.js';
import { BatchSchema } from '../domain/batches/schemas.js';
import { ProjectSchema } from '../domain/projects/schemas.js';
import { TaskSchema } from '../domain/tasks/task.js';

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

export const ClockSchema = z.object({
  now: z.string(),
  now_ms: z.number().int(),
  offset_ms: z.number().int(),
});

export const ClockAdvanceBodySchema = z
  .object({ ms: z.number().int().min(0).max(10 * 365 * 86_400_000) })
  .strict();

export const ClockAdvanceResultSchema = ClockSchema.extend({ jobs_run: z.number().int() });

export const SettingsSchema = z.object({
  completion: z.object({ mode: CompletionModeSchema, delay_ms: z.number().int().min(0) }),
  callback_auth_key: z.string(),
});

export const SettingsPatchSchema = z
  .object({
    completion: z
      .object({ mode: CompletionModeSchema.optional(), delay_ms: z.number().int().min(0).max(86_400_000).optional() })
      .strict()
      .optional(),
    callback_auth_key: z.string().min(1).max(256).optional(),
  })
  .strict();

export const ResetResultSchema = z.object({ result: z.literal('success') });

export const StateTaskSchema = z
  .object({
    task: TaskSchema,
    clear_unique_id_on_error: z.boolean().optional(),
  })
  .strict();

export const StateSchema = z
  .object({
    format: z.literal('labelmock-state/1'),
    clock_offset_ms: z.number().int().min(0),
    settings: SettingsSchema,
    projects: z.array(ProjectSchema).default([]),
    batches: z.array(BatchSchema).default([]),
    tasks: z.array(StateTaskSchema),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;
