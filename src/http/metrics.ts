import { performance } from 'node:perf_hooks';
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Clock } from '../runtime/clock.js';
import type { Metrics } from '../services/metrics.js';
import type { AppEnv } from './env.js';
import { logEntry, type RequestLogger } from './request-log.js';

/** Hono's `/v1/task/:taskId` written as the documents write it, `/v1/task/{taskId}`: made once per route. */
const documentedPaths = new Map<string, string>();
const documentedPath = (path: string): string => {
  let written = documentedPaths.get(path);
  if (written === undefined) {
    written = path.replace(/:(\w+)/g, '{$1}');
    documentedPaths.set(path, written);
  }
  return written;
};

/**
 * The route a request matched, as a bounded label: the path template of the route that answered (Hono's
 * routeIndex, the last handler it ran), or, when a middleware answered first (a 401, a 429), of the first route
 * after it that would have; `unmatched` when no route matched. Middleware is matched for every method, as ALL.
 */
function routeOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const matched = matchedRoutes(c);
  for (let i = c.req.routeIndex; i < matched.length; i++) {
    const route = matched[i];
    if (route && route.method !== 'ALL') return documentedPath(route.path);
  }
  return 'unmatched';
}

/**
 * Times every request once its answer is known, errors included (onError has set the response by the time `next`
 * returns): counted for GET /metrics, and logged when the log is on. One middleware for both, mounted first, so
 * it also sees what the other middleware refuse (401, 405, 413): each layer of middleware costs every request.
 * The time of day in the log comes from the app's clock, so a test's pinned clock pins it.
 */
export function observeRequests(
  metrics: Metrics,
  log: RequestLogger | undefined,
  clock: Clock,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const startedAt = performance.now();
    await next();
    const ms = performance.now() - startedAt;
    const status = c.res.status;
    metrics.observe(c.req.method, routeOf(c), status, ms / 1000);
    log?.write(logEntry(c, clock, status, ms));
  };
}
