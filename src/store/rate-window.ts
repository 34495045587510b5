import type { RateLimit } from '../domain/settings.js';

/** The rate limit's current window: when it opened on the tenant's clock, and the requests it counted. */
export interface RateWindow {
  startMs: number;
  used: number;
}

/**
 * Whether a window is still counting at `nowMs`: begun (a window that starts after now, as the clock moved back by
 * an import, is over: a new one opens) and not yet ended. The one rule: the budget's count (services/rate-limit.ts)
 * and the store's vacancy (a tenant holding an open window is not dropped, or its budget would reset) both ask it.
 */
export function rateWindowOpen(window: RateWindow | undefined, rule: RateLimit | null, nowMs: number): boolean {
  return (
    window !== undefined && rule !== null && window.startMs <= nowMs && nowMs < window.startMs + rule.per_seconds * 1000
  );
}
