import { z } from 'zod';
import { UNKNOWN_PARAMS_POLICIES } from './lenience.js';

/** Per-tenant behaviour of the mock, read and changed through /_mock/settings. */

const CompletionModeSchema = z.enum(['manual', 'immediate', 'delay', 'reads']);

/** Reads of a task that complete it in `reads` mode when none is given. */
export const DEFAULT_COMPLETION_READS = 3;
const MAX_COMPLETION_READS = 10_000;

export const CompletionSettingSchema = z
  .object({
    mode: CompletionModeSchema,
    delay_ms: z.number().int().min(0).max(86_400_000),
    reads: z
      .number()
      .int()
      .min(1)
      .max(MAX_COMPLETION_READS)
      .optional()
      .describe(
        `Mode reads: the read of a task (GET /v1/task/{id}, GET /v2/task) that finds it completed; ` +
          `${DEFAULT_COMPLETION_READS} when absent.`,
      ),
  })
  .strict();
export type CompletionSetting = z.infer<typeof CompletionSettingSchema>;

const CallbackSettingsSchema = z
  .object({
    /** Attempts per callback before it is recorded as failed (the real service: 20). */
    max_attempts: z.number().int().min(1).max(50),
    /** Scales the retry window: 1 spreads the retries over 24 hours like the real service, 0.001 over 86.4 s. */
    retry_scale: z.number().positive().max(100),
    /** An attempt whose receiver has not answered by then counts as failed. */
    timeout_ms: z.number().int().min(1).max(120_000),
  })
  .strict();
export type CallbackSettings = z.infer<typeof CallbackSettingsSchema>;

/** A request budget on the tenant's virtual clock: `requests` per window of `per_seconds` (labelmock's model). */
export const RateLimitSchema = z
  .object({
    requests: z.number().int().min(1).max(1_000_000).describe('Requests allowed in one window.'),
    per_seconds: z
      .number()
      .int()
      .min(1)
      .max(86_400)
      .describe("The window's length in seconds of the tenant's virtual clock; it starts with its first request."),
  })
  .strict()
  .describe(
    'Every /v1 and /v2 request of the tenant counts; past `requests` in a window the answer is a 429 with ' +
      'Retry-After until the window ends. null: no limit.',
  );
export type RateLimit = z.infer<typeof RateLimitSchema>;

export const UnknownParamsSchema = z
  .enum(UNKNOWN_PARAMS_POLICIES)
  .describe(
    'What /v1 and /v2 do with a parameter no route declares. lenient (the real service): accept it, ignore it, and ' +
      'name it in the Labelmock-Warning header and the journal; strict: the 400 naming it.',
  );

export const DEFAULT_CALLBACK_SETTINGS: CallbackSettings = { max_attempts: 20, retry_scale: 1, timeout_ms: 10_000 };

export const SettingsSchema = z
  .object({
    completion: CompletionSettingSchema,
    /** Sent as the `scale-callback-auth` header of callbacks, so receivers can check the sender. */
    callback_auth_key: z.string(),
    callbacks: CallbackSettingsSchema.default(DEFAULT_CALLBACK_SETTINGS),
    rate_limit: RateLimitSchema.nullable().default(null),
    unknown_params: UnknownParamsSchema.default('lenient'),
  })
  .strict();
export type TenantSettings = z.infer<typeof SettingsSchema>;

export const SettingsPatchSchema = z
  .object({
    completion: CompletionSettingSchema.partial().strict().optional(),
    callback_auth_key: z.string().min(1).max(256).optional(),
    callbacks: CallbackSettingsSchema.partial().strict().optional(),
    rate_limit: RateLimitSchema.nullable().optional(),
    unknown_params: UnknownParamsSchema.optional(),
  })
  .strict();

/** A new mode other than reads drops the reads count: it would say nothing, and a restore must read back equal. */
function mergeCompletion(current: CompletionSetting, patch: Partial<CompletionSetting> | undefined): CompletionSetting {
  const merged = { ...current, ...patch };
  if (merged.mode !== 'reads') delete merged.reads;
  return merged;
}

export function applySettingsPatch(
  settings: TenantSettings,
  patch: z.infer<typeof SettingsPatchSchema>,
): TenantSettings {
  return {
    completion: mergeCompletion(settings.completion, patch.completion),
    callback_auth_key: patch.callback_auth_key ?? settings.callback_auth_key,
    callbacks: { ...settings.callbacks, ...patch.callbacks },
    rate_limit: patch.rate_limit === undefined ? settings.rate_limit : patch.rate_limit,
    unknown_params: patch.unknown_params ?? settings.unknown_params,
  };
}
