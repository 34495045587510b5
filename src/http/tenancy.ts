import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors.js';
import type { Store } from '../store/store.js';
import type { AppEnv } from './env.js';

/** The 503 a new key gets once the server holds --max-tenants tenants. */
export const tenantLimitReached = (max: number) =>
  new ApiError(
    'service_unavailable',
    `Tenant limit reached: this server already holds ${max} tenants (--max-tenants, LABELMOCK_MAX_TENANTS). ` +
      'Keys that already have a tenant keep working; POST /_mock/reset with one of them frees its tenant.',
  );

/**
 * Hands the request its tenant (account + mode of the key) and gives it back when the request is
 * done, so the store can drop a tenant that ends up holding nothing: a read by a new key then
 * leaves no trace. A response still streaming after this returns only reads what it already holds.
 */
export function tenancy(store: Store): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { account, mode } = c.get('principal');
    const tenant = store.acquire(account, mode);
    if (!tenant) throw tenantLimitReached(store.limits.maxTenants);
    c.set('tenant', tenant);
    try {
      await next();
    } finally {
      store.release(tenant);
    }
  };
}
