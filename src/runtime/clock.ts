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

/**
 * ISO 8601 of a time in ms. The last answer is kept: under load many requests fall in one millisecond,
 * and each stamps its log line, journal entry and task with it (a pure function's memo: no state any
 * caller can observe).
 */
let lastMs = Number.NaN;
let lastIso = '';
export function toIso(ms: number): string {
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
}
