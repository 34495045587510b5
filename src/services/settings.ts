import type { z } from 'zod';
import { applySettingsPatch, type SettingsPatchSchema, type TenantSettings } from '../domain/settings.js';
import type { Tenant } from '../store/tenant.js';

/** `PATCH /_mock/settings`: the given fields replace the tenant's, the rest stay. */
export function patchSettings(tenant: Tenant, patch: z.infer<typeof SettingsPatchSchema>): TenantSettings {
  tenant.settings = applySettingsPatch(tenant.settings, patch);
  // A new budget starts a new window.
  if (patch.rate_limit !== undefined) tenant.rateWindow = undefined;
  return tenant.settings;
}
