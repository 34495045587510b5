import { describe, expect, it } from 'vitest';
import { insertByDue } from '../src/domain/jobs/queue.js';
import type { ScheduledJob } from '../src/domain/jobs/schemas.js';
import type { FetchLike } from '../src/services/callback-send.js';
import { retryOffsetMs } from '../src/services/callbacks.js';
import { createImageTask, makeApp, type TestApp } from './helpers.js';
import { waitFor } from './receiver.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const TARGET = 'https://receiver.test/callbacks';
const DELAY_MS = 60_000;

/** A receiver without sockets: answers `status` and keeps the targets it was sent to. */
function fakeFetch(status: number): { fetch: FetchLike; targets: string[] } {
  const targets: string[] = [];
  const fetch: FetchLike = async (input) => {
    targets.push(input);
    return new Response('', { status });
  };
  return { fetch, targets };
}

const exportOf = async (t: TestApp) => (await t.call('GET', '/_mock/state')).body;

/**
 * A tenant with a failed first callback attempt (its retry scheduled) and, made after it, a task
 * waiting for its delayed completion. Answers the export and both task ids.
 */
async function pendingWork(t: TestApp) {
  const called = await createImageTask(t, { callback_url: TARGET });
  await t.call('POST', `/_mock/tasks/${called.task_id}/complete`);
  await waitFor(async () => expect((await exportOf(t)).callbacks[0].attempts).toHaveLength(1));
  await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'delay', delay_ms: DELAY_MS } } });
  const delayed = await createImageTask(t, { callback_url: undefined });
  return { state: await exportOf(t), called: called.task_id, delayed: delayed.task_id };
}

describe('scheduled jobs as data', () => {
  it('GET /_mock/state carries a callback retry and a delayed completion as job records', async () => {
    const t = makeApp({ fetch: fakeFetch(500).fetch });
    const { state, called, delayed } = await pendingWork(t);
    const [delivery] = state.callbacks;
    expect(delivery).toMatchObject({ task_id: called, state: 'pending', attempts: [{ attempt: 1, status_code: 500 }] });
    expect(state.scheduled_jobs).toEqual([
      { kind: 'deliver_callback', delivery_id: delivery.id, attempt: 2, due_at: at(retryOffsetMs(2, 20, 1)) },
      { kind: 'complete_task', task_id: delayed, due_at: at(DELAY_MS) },
    ]);
  });

  it('PUT /_mock/state into a fresh app restores the jobs, which run when its clock is advanced', async () => {
    const { state, called, delayed } = await pendingWork(makeApp({ fetch: fakeFetch(500).fetch }));
    const receiver = fakeFetch(200);
    const fresh = makeApp({ fetch: receiver.fetch });
    expect((await fresh.call('PUT', '/_mock/state', { body: state })).status).toBe(200);
    expect((await exportOf(fresh)).scheduled_jobs).toEqual(state.scheduled_jobs);
    expect(receiver.targets).toEqual([]);

    const advanced = await fresh.call('POST', '/_mock/clock/advance', { body: { ms: DELAY_MS } });
    expect(advanced.status).toBe(200);
    expect(receiver.targets).toEqual([TARGET]);
    const after = await exportOf(fresh);
    expect(after.scheduled_jobs).toEqual([]);
    expect(after.callbacks[0]).toMatchObject({
      state: 'succeeded',
      attempts: [{ status_code: 500 }, { status_code: 200 }],
    });
    expect((await fresh.call('GET', `/v1/task/${delayed}`)).body.status).toBe('completed');
    expect((await fresh.call('GET', `/v1/task/${called}`)).body.callback_succeeded).toBe(true);
  });

  it('PUT /_mock/state gives a pending delivery without a job (an attempt in flight) that attempt again', async () => {
    const { state } = await pendingWork(makeApp({ fetch: fakeFetch(500).fetch }));
    const fresh = makeApp({ fetch: fakeFetch(200).fetch });
    const withoutRetry = state.scheduled_jobs.filter((job: { kind: string }) => job.kind !== 'deliver_callback');
    expect((await fresh.call('PUT', '/_mock/state', { body: { ...state, scheduled_jobs: withoutRetry } })).status).toBe(
      200,
    );
    expect((await exportOf(fresh)).scheduled_jobs).toEqual(state.scheduled_jobs);
  });

  it('PUT /_mock/state of an export without callbacks and jobs (an older one) imports with none', async () => {
    const { state } = await pendingWork(makeApp({ fetch: fakeFetch(500).fetch }));
    const { callbacks: _callbacks, scheduled_jobs: _jobs, ...older } = state;
    const fresh = makeApp();
    expect((await fresh.call('PUT', '/_mock/state', { body: older })).status).toBe(200);
    const loaded = await exportOf(fresh);
    expect(loaded.callbacks).toEqual([]);
    expect(loaded.scheduled_jobs).toEqual([]);
    expect(loaded.tasks).toEqual(state.tasks);
  });

  it('PUT /_mock/state writes job times as the mock does and keeps them in due order', async () => {
    const { state, delayed } = await pendingWork(makeApp({ fetch: fakeFetch(500).fetch }));
    const [retry] = state.scheduled_jobs;
    const early = { kind: 'complete_task', task_id: delayed, due_at: '2026-01-01T00:00:00.1+00:00' };
    const fresh = makeApp();
    const put = await fresh.call('PUT', '/_mock/state', { body: { ...state, scheduled_jobs: [retry, early] } });
    expect(put.status).toBe(200);
    expect(put.body.scheduled_jobs).toEqual([{ ...early, due_at: at(100) }, retry]);
  });

  it('insertByDue puts a job after those due at the same moment, before later ones', () => {
    const job = (task_id: string, ms: number): ScheduledJob => ({ kind: 'complete_task', task_id, due_at: at(ms) });
    const jobs = [job('a', 10), job('b', 20), job('c', 30)];
    insertByDue(jobs, job('d', 20));
    insertByDue(jobs, job('e', 0));
    insertByDue(jobs, job('f', 40));
    expect(jobs.map((j) => (j.kind === 'complete_task' ? j.task_id : ''))).toEqual(['e', 'a', 'b', 'd', 'c', 'f']);
  });

  type Jobs = { kind: string; due_at: string }[];
  const broken: [string, (jobs: Jobs) => unknown[], RegExp][] = [
    [
      'a completion of a task it lacks',
      (jobs) => [jobs[0], { ...jobs[1], task_id: 'nope' }],
      /"scheduled_jobs\[1\].task_id" names nope, which is not among the imported tasks/,
    ],
    [
      'an attempt of a delivery it lacks',
      (jobs) => [{ ...jobs[0], delivery_id: 'gone' }, jobs[1]],
      /"scheduled_jobs\[0\].delivery_id" names gone, which is not in the imported callbacks/,
    ],
    ['two attempts of one delivery', (jobs) => [jobs[0], jobs[0]], /"scheduled_jobs\[1\].delivery_id" .* already has/],
    ['an unknown kind', (jobs) => [{ ...jobs[0], kind: 'launch' }], /scheduled_jobs\[0\].kind/],
    ['a time that is no time', (jobs) => [{ ...jobs[1], due_at: 'soon' }], /"scheduled_jobs\[0\].due_at" must be/],
    ['attempt 0', (jobs) => [{ ...jobs[0], attempt: 0 }], /scheduled_jobs\[0\].attempt/],
  ];
  for (const [what, change, message] of broken) {
    it(`PUT /_mock/state with ${what} answers 400 naming it and changes nothing`, async () => {
      const t = makeApp({ fetch: fakeFetch(500).fetch });
      const { state } = await pendingWork(t);
      const res = await t.call('PUT', '/_mock/state', {
        body: { ...state, scheduled_jobs: change(state.scheduled_jobs) },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect(await exportOf(t)).toEqual(state);
    });
  }
});
