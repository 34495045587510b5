import type { RateLimit } from '../domain/settings.js';

/** The rate limit's current window: when it opened on the tenant's clock, and the requests it counted. */
export interface RateWindow {
  startMs: number;
  used: number;
}

/** Whether a window is still counting: a tenant that holds one is not dropped as empty (its budget would reset). */
export function rateWindowOpen(window: RateWindow | undefined, rule: RateLimit | null, nowMs: number): boolean {
  return window !== undefined && rule !== null && nowMs < window.startMs + rule.per_seconds * 1000;
}
