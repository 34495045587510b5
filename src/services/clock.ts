import { CLOCK_OFFSET_RANGE, MAX_CLOCK_OFFSET_MS } from '../domain/clock-bounds.js';
import { invalid } from '../errors.js';
import type { Tenant } from '../store/tenant.js';

/**
 * Moves the tenant's virtual clock forward. Refused (400, nothing moves) when the offset would
 * leave its range, so no later timestamp can be one toISOString cannot write.
 */
export function advanceClock(tenant: Tenant, ms: number): void {
  const room = MAX_CLOCK_OFFSET_MS - tenant.clockOffsetMs;
  if (ms > room) {
    const rule = `must be at most ${Math.max(0, room)} here: the clock offset (now ${tenant.clockOffsetMs}) must stay ${CLOCK_OFFSET_RANGE}`;
    throw invalid(`Parameter is invalid, reason: "ms" ${rule}`);
  }
  tenant.clockOffsetMs += ms;
}
