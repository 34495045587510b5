/**
 * Time sources. The app reads time only through a Clock so tests can pin it; each tenant then adds
 * its own offset on top (`POST /_mock/clock/advance`), which is what makes the clock "virtual".
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that moves only when told: for tests that need exact timestamps. */
export class ManualClock implements Clock {
  constructor(private current = Date.parse('2026-01-01T00:00:00.000Z')) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const toIso = (ms: number): string => new Date(ms).toISOString();
