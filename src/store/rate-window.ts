import type { Tenant } from './tenant.js';

/** The rate limit's current window: when it opened on the tenant's clock, and the requests it counted. */
export interface RateWindow {
  startMs: number;
  used: number;
}

/** Whether a window is still counting: a tenant that holds one is not dropped as empty (its budget would reset). */
export function rateWindowOpen(tenant: Tenant): boolean {
  const window = tenant.rateWindow;
  const rule = tenant.settings.rate_limit;
  return window !== undefined && rule !== null && tenant.now() < window.startMs + rule.per_seconds * 1000;
}
