import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Metrics } from '../services/metrics.js';

const ExpositionSchema = extendApi(z.string(), {
  description: 'The Prometheus text exposition format (version 0.0.4): one series per line, # HELP and # TYPE above.',
});

/**
 * GET /metrics: what Prometheus scrapes, without a key as scrapers call. Labelled by shard (--shard-id), never by
 * account: it says how busy the process is, nothing of what any tenant holds.
 */
export function metricsRoute(metrics: Metrics): RouteSpec {
  return defineRoute({
    method: 'get',
    path: '/metrics',
    tag: 'Control',
    summary: "The process's Prometheus metrics (no key needed)",
    description:
      'Requests by method, route and status with their latency histogram; tenants and accounts held, held ' +
      'requests, journal and upload bytes, callback deliveries in flight, queued and attempted by outcome, open ' +
      "event streams, and the Node process's own (memory, CPU, event loop). Labelled by `shard` behind a router; " +
      'no series names an account or a key.',
    public: true,
    response: ExpositionSchema,
    responseMediaType: 'text/plain',
    examples: () => ({
      response:
        '# HELP labelmock_tenants Tenants (an account in one mode) held now.\n# TYPE labelmock_tenants gauge\n' +
        'labelmock_tenants{shard="shard-0"} 12\n',
    }),
    errors: [],
    handler: async ({ c }) => c.body(await metrics.text(), 200, { 'Content-Type': metrics.contentType }),
  });
}
