import { createHash } from 'node:crypto';
import { idempotencyInFlight, idempotencyKeyReused, invalidIdempotencyKey } from '../errors/index.js';
import type { IdempotencyStore } from '../store/idempotency-store.js';
import type { Tenant } from '../store/tenant.js';
import { errorBody, toApiError } from './error-answer.js';

export interface Outcome {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** Stored responses expire after one day of the owning tenant's virtual clock. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key rules of the interface: the first response, error or not, is stored and
 * replayed for a matching request; other parameters or another user with the same key is a 409;
 * a matching request still in flight is a 429.
 */
export class IdempotencyGuard {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly tenantOf: (tenantKey: string) => Tenant | undefined,
  ) {}

  async run(tenant: Tenant, key: string, fingerprint: string, handler: () => Promise<Outcome>): Promise<Outcome> {
    if (key.trim() === '' || key.length > MAX_KEY_LENGTH) {
      throw invalidIdempotencyKey(MAX_KEY_LENGTH);
    }
    // A record keeps a digest of the request, not the request: equal requests still match, and a
    // record costs its response and little else (1.8 KB with a 1.3 KB task answer; 3.0 KB before).
    const digest = createHash('sha256').update(fingerprint).digest('base64');
    // Swept here too, not only on the app's timer: a tenant that keeps sending keys keeps its own
    // store trimmed (the queue makes this cheap: it stops at the first record still live).
    this.store.sweep(tenant.key, tenant.now());
    const existing = this.liveEntry(key);
    if (existing) {
      if (existing.tenantKey !== tenant.key) throw idempotencyKeyReused(key, 'by a different user');
      if (existing.fingerprint !== digest) throw idempotencyKeyReused(key, 'with different parameters');
      if (existing.state === 'in_flight') throw idempotencyInFlight(key);
      return {
        status: existing.status as number,
        body: existing.body as string,
        headers: { 'Idempotent-Replayed': 'true' },
      };
    }
    const entry = {
      tenantKey: tenant.key,
      fingerprint: digest,
      state: 'in_flight' as const,
      expiresMs: tenant.now() + IDEMPOTENCY_TTL_MS,
    };
    this.store.set(key, entry);
    try {
      const outcome = await handler();
      this.store.set(key, { ...entry, state: 'done', status: outcome.status, body: outcome.body });
      return outcome;
    } catch (err) {
      const apiError = toApiError(err);
      // The mock's own bugs are not client outcomes: forget the key so a retry can succeed.
      if (apiError.kind === 'internal') {
        this.store.delete(key);
        throw err;
      }
      const body = JSON.stringify(errorBody(apiError.status, apiError.message));
      this.store.set(key, { ...entry, state: 'done', status: apiError.status, body });
      return { status: apiError.status, body, headers: apiError.headers };
    }
  }

  private liveEntry(key: string) {
    const entry = this.store.get(key);
    if (!entry) return undefined;
    const owner = this.tenantOf(entry.tenantKey);
    if (!owner || owner.now() >= entry.expiresMs) {
      this.store.delete(key);
      return undefined;
    }
    return entry;
  }
}
