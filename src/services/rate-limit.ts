import { rateWindowOpen } from '../store/rate-window.js';
import type { Tenant } from '../store/tenant.js';

/** What one request's turn against the tenant's rate limit came to, and the headers that tell the client. */
export interface RateVerdict {
  allowed: boolean;
  /** X-RateLimit-Limit, -Remaining and -Reset (labelmock's names: the real service publishes none). */
  headers: Record<string, string>;
  /** Seconds until the window ends (at least 1): Retry-After of a refused request, X-RateLimit-Reset. */
  resetS: number;
  limit: number;
  perSeconds: number;
}

/**
 * Counts a request against the tenant's budget (settings.rate_limit), undefined when it has none. A fixed
 * window on the tenant's virtual clock: it opens with the first request after the last one ended, so a
 * test that spends the budget and advances the clock by `per_seconds` gets it back. A refused request
 * spends nothing.
 */
export function spendRequest(tenant: Tenant): RateVerdict | undefined {
  const rule = tenant.settings.rate_limit;
  if (!rule) return undefined;
  const now = tenant.now();
  const windowMs = rule.per_seconds * 1000;
  let window = tenant.rateWindow;
  if (!window || !rateWindowOpen(window, rule, now)) {
    window = { startMs: now, used: 0 };
    tenant.rateWindow = window;
  }
  const allowed = window.used < rule.requests;
  if (allowed) window.used += 1;
  const resetS = Math.max(1, Math.ceil((window.startMs + windowMs - now) / 1000));
  const headers = {
    'X-RateLimit-Limit': String(rule.requests),
    'X-RateLimit-Remaining': String(rule.requests - window.used),
    'X-RateLimit-Reset': String(resetS),
  };
  return { allowed, headers, resetS, limit: rule.requests, perSeconds: rule.per_seconds };
}
