import { insertByDue } from '../domain/jobs/queue.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import { toIso } from '../runtime/clock.js';
import type { Tenant } from '../store/tenant.js';

/** Does one job (services/jobs.ts maps each kind to its function). */
export type RunJob = (tenant: Tenant, job: ScheduledJob) => void | Promise<void>;

/** setTimeout's ceiling; longer waits are reached by clock advance or a re-armed timer. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs a tenant's scheduled jobs (records in `tenant.jobs`, in due order) at their moment of the
 * tenant's virtual clock: either when real time reaches it (a timer, which only wakes the runner)
 * or at once when `POST /_mock/clock/advance` moves the clock past it. Timers are unref'd so an
 * idle app never keeps the process alive.
 */
export class Scheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  private run: RunJob = () => {
    throw new Error('no job runner is wired to the scheduler');
  };

  /** The runner needs the callback dispatcher, which needs this scheduler: it is wired after both exist. */
  runWith(run: RunJob): void {
    this.run = run;
  }

  schedule(tenant: Tenant, job: ScheduledJob): void {
    insertByDue(tenant.jobs, job);
    tenant.changed({ kind: 'job', job, scheduled: true });
    this.arm(tenant, Date.parse(job.due_at));
  }

  /** Arms timers for jobs a tenant holds without having scheduled them here (an import). */
  rearm(tenant: Tenant): void {
    const moments = new Set(tenant.jobs.map((job) => job.due_at));
    for (const dueAt of moments) this.arm(tenant, Date.parse(dueAt));
  }

  /**
   * Runs every job of the tenant that is due by its clock, one after the other (a job may be a
   * callback delivery that awaits its receiver), and resolves with how many ran. A job may
   * schedule another (a retry): due ones are taken until none is left.
   */
  async runDue(tenant: Tenant): Promise<number> {
    let ran = 0;
    for (;;) {
      // A tenant replaced by a reset or an import runs nothing more: its jobs went with it.
      if (tenant.retired) {
        tenant.jobs.length = 0;
        return ran;
      }
      const next = tenant.jobs[0];
      if (!next || Date.parse(next.due_at) > tenant.now()) return ran;
      tenant.jobs.shift();
      tenant.changed({ kind: 'job', job: next, scheduled: false });
      ran += 1;
      try {
        await this.run(tenant, next);
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
    // Job times are held as toIso writes them (imports are normalized), so a string compares.
    const dueAt = toIso(dueMs);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // A retired tenant's jobs went with it: nothing to run, and no timer re-armed to hold it alive.
      if (tenant.retired) return;
      void this.runDue(tenant);
      // Fired early (capped wait, coarse timer): wait again, but only while the clock really moves;
      // a pinned test clock reaches the job through clock advance instead.
      if (tenant.now() > armedAt && tenant.jobs.some((job) => job.due_at === dueAt)) this.arm(tenant, dueMs);
    }, wait);
    timer.unref();
    this.timers.add(timer);
  }
}
