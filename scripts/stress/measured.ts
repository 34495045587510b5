import { type Answer, fmtLatency, fmtMs, sampleLatency } from './http.js';
import type { Ctx } from './report.js';

/**
 * One request (or a few) measured as most items report it: its status and time, the server's longest event-loop
 * stall meanwhile, and what a bystander tenant's requests waited.
 */
export async function measured(ctx: Ctx, request: () => Promise<Answer>): Promise<string> {
  await ctx.server.probe();
  const { result, latency } = await sampleLatency(ctx.server.base, request);
  const stall = (await ctx.server.probe()).loopMaxMs;
  return `${result.status} in ${fmtMs(result.ms)}; loop stall ${fmtMs(stall)}; ${fmtLatency(latency)}`;
}
