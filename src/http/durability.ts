import type { MiddlewareHandler } from 'hono';
import { notDurable } from '../errors/index.js';
import type { DurableState } from '../persist/durable-state.js';
import type { AppEnv } from './env.js';

/** Methods that usually change nothing: their answers wait for the disk only when they did change something. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * With --data-dir: a request that may have changed its tenant is answered only once the change is
 * durable. When it cannot be made so, the answer is a 503 and the tenant is read back from the folder,
 * so the change is not half kept: gone from memory as it never reached the disk.
 */
export function durability(state: DurableState): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const tenant = c.get('tenant');
    const reloads = state.reloadCount(tenant.key);
    const changes = state.changeCount(tenant);
    await next();
    if (READS.has(c.req.method) && state.changeCount(tenant) === changes) return;
    try {
      await state.sync(tenant);
    } catch (err) {
      throw notDurable(err instanceof Error ? err.message : String(err));
    }
    // Another request's failed write reloaded the tenant while this one ran: its change went with it.
    if (state.reloadCount(tenant.key) !== reloads) throw notDurable('a write of this tenant failed meanwhile');
  };
}
