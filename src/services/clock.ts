import { CLOCK_OFFSET_RANGE, MAX_CLOCK_OFFSET_MS } from '../domain/clock-bounds.js';
import { invalidParameter } from '../errors/index.js';
import type { Tenant } from '../store/tenant.js';
import type { Scheduler } from './scheduler.js';

/**
 * Moves the tenant's virtual clock forward. Refused (400, nothing moves) when the offset would
 * leave its range, so no later timestamp can be one toISOString cannot write.
 */
function advanceClock(tenant: Tenant, ms: number): void {
  const room = MAX_CLOCK_OFFSET_MS - tenant.clockOffsetMs;
  if (ms > room) {
    const rule =
      `must be at most ${Math.max(0, room)} here: ` +
      `the clock offset (now ${tenant.clockOffsetMs}) must stay ${CLOCK_OFFSET_RANGE}`;
    throw invalidParameter('ms', rule);
  }
  tenant.clockOffsetMs += ms;
}

/** `POST /_mock/clock/advance`: moves the clock, then runs what became due; awaited, so it is done on return. */
export async function advanceClockAndRunDue(scheduler: Scheduler, tenant: Tenant, ms: number): Promise<number> {
  advanceClock(tenant, ms);
  return scheduler.runDue(tenant);
}
