import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../errors/index.js';
import { spendRequest } from '../services/rate-limit.js';
import type { AppEnv } from './env.js';
import { withHeaders } from './response-headers.js';

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
    const res = withHeaders(c.res, verdict.headers);
    // A copy (the answer's headers were immutable) replaces the answer; the answer itself was changed in place.
    if (res !== c.res) c.res = res;
  });
};
