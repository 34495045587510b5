import { cors } from 'hono/cors';

/**
 * CORS for browser apps under development (`--cors`). Mounted before auth, so a preflight (OPTIONS)
 * is answered 204 without a key: browsers never send credentials with a preflight. The headers a
 * client sends are allowed (the key in Authorization, JSON bodies, Idempotency-Key, Labelmock-Fault) and the ones
 * it reads are exposed, so a browser app sees a replay, a retry hint or the allowed methods.
 */
export function corsMiddleware(origins: readonly string[]) {
  return cors({
    origin: origins.includes('*') ? '*' : [...origins],
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key', 'Labelmock-Fault'],
    exposeHeaders: ['Idempotent-Replayed', 'Retry-After', 'Allow', 'WWW-Authenticate'],
    // Ten minutes: a developer who changes --cors restarts the mock, and browsers cap it near there anyway.
    maxAge: 600,
  });
}
