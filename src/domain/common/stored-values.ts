import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { invalidParameter } from '../../errors/index.js';

/**
 * What a state import may carry where the server would have written the value itself: one rule each, for every
 * list of the state (tasks, batches, jobs, callbacks, files, the team, training attempts).
 */

/**
 * A timestamp: ISO 8601 with a time and an offset (RFC 3339, what `format: date-time` means and what every export
 * writes). Date.parse alone takes text such as " 1 " (the year 2001), which was then answered as it was given.
 */
export const IsoTimestampSchema = extendApi(
  z.string().datetime({ offset: true, message: 'must be an ISO 8601 timestamp, e.g. 2026-01-01T00:00:00.000Z' }),
  { format: 'date-time', description: 'ISO 8601 with an offset (RFC 3339)', example: '2026-01-01T00:00:00.000Z' },
);

/** Checks one imported timestamp at its place (`batches[2].created_at`); absent is fine. */
export function checkIsoTimestamp(value: string | undefined, at: string): void {
  if (value === undefined || IsoTimestampSchema.safeParse(value).success) return;
  throw invalidParameter(
    at,
    `must be an ISO 8601 timestamp, e.g. 2026-01-01T00:00:00.000Z (got "${value.slice(0, 40)}")`,
  );
}

/** An id this server minted and an import may carry: 24 lowercase hex digits, as every id it makes is. */
export const StoredIdSchema = z.string().regex(/^[0-9a-f]{24}$/, 'must be 24 lowercase hex digits');
