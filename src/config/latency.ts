import { z } from 'zod';
import { MAX_FAULT_DELAY_MS } from '../domain/faults/schemas.js';

/** --latency: every /v1 request waits MS, or a time drawn from MIN-MAX (real time, not the virtual clock). */
export const LatencySchema = z
  .object({
    minMs: z.number().int().min(0).max(MAX_FAULT_DELAY_MS),
    maxMs: z.number().int().min(0).max(MAX_FAULT_DELAY_MS),
  })
  .strict()
  .refine((latency) => latency.minMs <= latency.maxMs, 'minMs must not exceed maxMs');
export type Latency = z.infer<typeof LatencySchema>;

const LATENCY_RULE = `must be MS or MIN-MAX, whole milliseconds from 0 to ${MAX_FAULT_DELAY_MS}, MIN at most MAX`;

/** `MS` or `MIN-MAX` from a flag, the environment or a --config file (where a plain number also works). */
export const latencyValue = z
  .union([z.string(), z.number()], { errorMap: () => ({ message: LATENCY_RULE }) })
  .transform((value, ctx) => {
    const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(String(value));
    const minMs = Number(match?.[1]);
    const maxMs = match?.[2] === undefined ? minMs : Number(match[2]);
    const parsed = LatencySchema.safeParse({ minMs, maxMs });
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: LATENCY_RULE });
    return z.NEVER;
  });
