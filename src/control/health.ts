import { HealthSchema } from '../domain/control/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { zodEffectsFixed } from '../runtime/zod-effects-mark.js';
import type { Services } from '../services/context.js';
import { packageVersion } from '../version.js';

/**
 * The one control route that needs no key: a readiness probe (CI waiting for the mock, a container
 * health check) has none to give. It says nothing about any tenant.
 */
export function healthRoute(services: Services): RouteSpec {
  return defineRoute({
    method: 'get',
    path: '/_mock/health',
    tag: 'Control',
    summary: 'Is the mock up: its version and uptime (no key needed)',
    description:
      'Answers without a key: status ok, the version of labelmock, its uptime in seconds and whether ' +
      'the process validates through the fast path the bin installs, and its shard name behind a router.',
    public: true,
    response: HealthSchema,
    errors: [],
    handler: () => ({
      status: 'ok' as const,
      version: packageVersion(),
      uptime_s: Math.max(0, Math.floor((services.clock.now() - services.startedAt) / 1000)),
      fast_validation: zodEffectsFixed(),
      shard: services.config.shardId ?? null,
    }),
  });
}
