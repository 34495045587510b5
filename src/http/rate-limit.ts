import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../errors/index.js';
import { spendRequest } from '../services/rate-limit.js';
import type { AppEnv } from './env.js';

/**
 * The tenant's rate limit on /v1 and /v2 (after tenancy, before faults and routes): a request past the budget
 * is a 429 that changes nothing; every counted answer carries the X-RateLimit-* headers. A tenant without a
 * limit pays one property read.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = (c, next) => {
  const verdict = spendRequest(c.get('tenant'));
  if (!verdict) return next();
  if (!verdict.allowed) throw rateLimited(verdict.limit, verdict.perSeconds, verdict.resetS, verdict.headers);
  return next().then(() => {
    // A streamed or fetched answer may carry immutable headers: copy it once to add ours.
    if (!trySetHeaders(c.res.headers, verdict.headers)) {
      c.res = new Response(c.res.body, c.res);
      trySetHeaders(c.res.headers, verdict.headers);
    }
  });
};

function trySetHeaders(target: Headers, headers: Record<string, string>): boolean {
  try {
    for (const [name, value] of Object.entries(headers)) target.set(name, value);
    return true;
  } catch {
    return false;
  }
}
