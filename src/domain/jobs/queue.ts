import type { ScheduledJob } from './schemas.js';

/**
 * Puts a job into a list kept in due order, after those due at the same moment (so jobs due
 * together run in the order they were scheduled). A binary search, then one splice: scheduling
 * thousands of delayed completions stays linear in memory moves rather than a sort per job.
 */
export function insertByDue(jobs: ScheduledJob[], job: ScheduledJob): void {
  const dueMs = Date.parse(job.due_at);
  let low = 0;
  let high = jobs.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Date.parse((jobs[mid] as ScheduledJob).due_at) <= dueMs) low = mid + 1;
    else high = mid;
  }
  jobs.splice(low, 0, job);
}

/** Jobs in due order, stable for equal moments; each date parsed once. */
export function sortByDue(jobs: ScheduledJob[]): ScheduledJob[] {
  return jobs
    .map((job) => ({ job, dueMs: Date.parse(job.due_at) }))
    .sort((a, b) => a.dueMs - b.dueMs)
    .map(({ job }) => job);
}
