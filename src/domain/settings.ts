import { z } from 'zod';

/** Per-tenant behaviour of the mock, read and changed through /_mock/settings. */

const CompletionModeSchema = z.enum(['manual', 'immediate', 'delay']);

export const CompletionSettingSchema = z
  .object({
    mode: CompletionModeSchema,
    delay_ms: z.number().int().min(0).max(86_400_000),
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

export const DEFAULT_CALLBACK_SETTINGS: CallbackSettings = { max_attempts: 20, retry_scale: 1, timeout_ms: 10_000 };

export const SettingsSchema = z
  .object({
    completion: CompletionSettingSchema,
    /** Sent as the `scale-callback-auth` header of callbacks, so receivers can check the sender. */
    callback_auth_key: z.string(),
    callbacks: CallbackSettingsSchema.default(DEFAULT_CALLBACK_SETTINGS),
  })
  .strict();
export type TenantSettings = z.infer<typeof SettingsSchema>;

export const SettingsPatchSchema = z
  .object({
    completion: CompletionSettingSchema.partial().strict().optional(),
    callback_auth_key: z.string().min(1).max(256).optional(),
    callbacks: CallbackSettingsSchema.partial().strict().optional(),
  })
  .strict();

export function applySettingsPatch(
  settings: TenantSettings,
  patch: z.infer<typeof SettingsPatchSchema>,
): TenantSettings {
  return {
    completion: { ...settings.completion, ...patch.completion },
    callback_auth_key: patch.callback_auth_key ?? settings.callback_auth_key,
    callbacks: { ...settings.callbacks, ...patch.callbacks },
  };
}
