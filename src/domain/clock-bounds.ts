import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/**
 * How far a tenant's virtual clock may run ahead of real time: 100 years (365-day years). Every
 * timestamp is written with toISOString, which fails past ±8.64e15 ms and leaves the 4-digit year
 * after 9999; 100 years ahead keeps every moment the mock writes well inside both.
 */
export const MAX_CLOCK_OFFSET_MS = 100 * 365 * 86_400_000;

export const CLOCK_OFFSET_RANGE = `between 0 and ${MAX_CLOCK_OFFSET_MS} ms (100 years)`;

/** The tenant's clock offset as imported with PUT /_mock/state. */
export const ClockOffsetSchema = extendApi(
  z
    .number()
    .int()
    .refine((ms) => ms >= 0 && ms <= MAX_CLOCK_OFFSET_MS, `must be ${CLOCK_OFFSET_RANGE}`),
  { minimum: 0, maximum: MAX_CLOCK_OFFSET_MS, description: 'How far the virtual clock runs ahead of real time' },
);
