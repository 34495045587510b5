import type { MiddlewareHandler } from 'hono';
import { tenantLimit } from '../errors/index.js';
import type { Store } from '../store/store.js';
import type { AppEnv } from './env.js';

/**
 * Hands the request its tenant (account + mode of the key) and gives it back when the request is
 * done, so the store can drop a tenant that ends up holding nothing: a read by a new key then
 * leaves no trace. A response still streaming after this returns only reads what it already holds.
 */
export function tenancy(store: Store, shardId?: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { account, mode } = c.get('principal');
    const tenant = store.acquire(account, mode);
    if (!tenant) throw tenantLimit(store.limits.maxTenants);
    c.set('tenant', tenant);
    tenant.origin = originOf(c.req.url);
    tenant.shard = shardId;
    try {
      await next();
    } finally {
      store.release(tenant);
    }
  };
}

/** `https://host:port` of a request URL (always absolute here): up to the slash that starts the path. */
function originOf(url: string): string {
  const pathAt = url.indexOf('/', url.indexOf('//') + 2);
  return pathAt < 0 ? url : url.slice(0, pathAt);
}
