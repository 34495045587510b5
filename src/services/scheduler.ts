import type { Tenant } from '../store/tenant.js';

/** setTimeout's ceiling; longer waits are reached by clock advance or a re-armed timer. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs work at a moment of a tenant's virtual clock: either when real time reaches it (a timer)
 * or at once when `POST /_mock/clock/advance` moves the clock past it. Timers are unref'd so an
 * idle app never keeps the process alive.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  schedule(tenant: Tenant, dueMs: number, run: () => void | Promise<void>): void {
    tenant.jobs.push({ dueMs, run });
    tenant.jobs.sort((a, b) => a.dueMs - b.dueMs);
    this.arm(tenant, dueMs);
  }

  /**
   * Runs every job of the tenant that is due by its clock, one after the other (a job may be a
   * callback delivery that awaits its receiver), and resolves with how many ran. A job may
   * schedule another (a retry): due ones are taken until none is left.
   */
  async runDue(tenant: Tenant): Promise<number> {
    let ran = 0;
    for (;;) {
      const next = tenant.jobs[0];
      if (!next || next.dueMs > tenant.now()) return ran;
      tenant.jobs.shift();
      ran += 1;
      try {
        await next.run();
      } catch (err) {
        console.error('scheduled job failed', err);
      }
    }
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private arm(tenant: Tenant, dueMs: number): void {
    const armedAt = tenant.now();
    const wait = Math.min(Math.max(0, dueMs - armedAt), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.runDue(tenant);
      // Fired early (capped wait, coarse timer): wait again, but only while the clock really moves;
      // a pinned test clock reaches the job through clock advance instead.
      if (tenant.now() > armedAt && tenant.jobs.some((job) => job.dueMs === dueMs)) this.arm(tenant, dueMs);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }
}
