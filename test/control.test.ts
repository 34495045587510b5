import { describe, expect, it } from 'vitest';
import { basic, createImageTask, makeApp, withResultFile } from './helpers.js';

describe('/_mock control plane', () => {
  it('POST /_mock/tasks/{id}/complete synthesizes a response and sets completed_at', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    t.clock.advance(2500);
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'completed',
      completed_at: '2026-01-01T00:00:02.500Z',
      updated_at: '2026-01-01T00:00:02.500Z',
      customer_review_status: 'pending',
    });
    const labels = res.body.response.annotations.map((a: { label: string }) => a.label);
    expect(labels).toEqual(['car', 'truck', 'bus', 'pedestrian']);
    const read = await t.call('GET', `/v1/task/${task.task_id}`);
    expect(read.body).toEqual(res.body);
  });

  it('POST /_mock/tasks/{id}/complete stores a given valid response', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const response = {
      annotations: [
        {
          type: 'box',
          uuid: 'b-1',
          label: 'car',
          left: 1,
          top: 2,
          width: 3,
          height: 4,
          attributes: { occlusion: '25%' },
        },
      ],
    };
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response } });
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(response);
  });

  const misfits: [string, unknown, RegExp][] = [
    [
      'a label the task did not ask for',
      { annotations: [{ type: 'box', uuid: 'x', label: 'plane', left: 0, top: 0, width: 1, height: 1 }] },
      /"response.annotations\[0\].label" is "plane"/,
    ],
    [
      'a parent label (only leaves are returned)',
      { annotations: [{ type: 'box', uuid: 'x', label: 'vehicle', left: 0, top: 0, width: 1, height: 1 }] },
      /is "vehicle", not one of the task's box labels/,
    ],
    [
      'a geometry the task did not ask for',
      { annotations: [{ type: 'point', uuid: 'x', label: 'car', x: 1, y: 1 }] },
      /"response.annotations\[0\].type" is "point"/,
    ],
    [
      'an attribute value not offered',
      {
        annotations: [
          {
            type: 'box',
            uuid: 'x',
            label: 'car',
            left: 0,
            top: 0,
            width: 1,
            height: 1,
            attributes: { occlusion: '99%' },
          },
        ],
      },
      /"response.annotations\[0\].attributes.occlusion" has value\(s\) "99%"/,
    ],
    [
      'a box without height',
      { annotations: [{ type: 'box', uuid: 'x', label: 'car', left: 0, top: 0, width: 1 }] },
      /"response.annotations\[0\].height" is required/,
    ],
    ['no annotations array', { boxes: [] }, /"response.annotations" is required/],
  ];
  for (const [what, response, message] of misfits) {
    it(`POST /_mock/tasks/{id}/complete rejects a response with ${what}`, async () => {
      const t = makeApp();
      const task = await createImageTask(t);
      const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`, { body: { response } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    });
  }

  it('POST /_mock/tasks/{id}/complete on a finished task is a 400', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    await t.call('POST', `/v1/task/${task.task_id}/cancel`);
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/is canceled; only pending tasks can be completed/);
  });

  it('POST /_mock/tasks/{id}/fail moves a task to error and honours clear_unique_id_on_error', async () => {
    const t = makeApp();
    const task = await createImageTask(t, { unique_id: 'u-err', clear_unique_id_on_error: true });
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/fail`, { body: { error: 'attachment unreadable' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'error', error: 'attachment unreadable' });
    expect(res.body).not.toHaveProperty('unique_id');
    const kept = await createImageTask(t, { unique_id: 'u-keep' });
    const failed = await t.call('POST', `/_mock/tasks/${kept.task_id}/fail`);
    expect(failed.body.unique_id).toBe('u-keep');
    expect((await t.call('POST', `/_mock/tasks/${kept.task_id}/fail`)).status).toBe(400);
  });

  it('POST /_mock/tasks/{id}/redo sends a completed task back to pending with times_redone', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/redo`)).status).toBe(400);
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    await t.call('POST', `/v1/task/${task.task_id}/audit`, { body: { accepted: false } });
    const res = await t.call('POST', `/_mock/tasks/${task.task_id}/redo`);
    // The redone response awaits a review of its own; the audit stays as history.
    expect(res.body).toMatchObject({
      status: 'pending',
      times_redone: 1,
      customer_review_status: 'pending',
      audits: [{ audit_result: 'rejected' }],
    });
    expect(res.body).not.toHaveProperty('response');
    await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/redo`)).body.times_redone).toBe(2);
  });

  it('GET /_mock/clock and POST /_mock/clock/advance move only the caller tenant', async () => {
    const t = makeApp();
    expect((await t.call('GET', '/_mock/clock')).body).toEqual({
      now: '2026-01-01T00:00:00.000Z',
      now_ms: Date.parse('2026-01-01T00:00:00.000Z'),
      offset_ms: 0,
    });
    const advanced = await t.call('POST', '/_mock/clock/advance', { body: { ms: 90_000 } });
    expect(advanced.body).toMatchObject({ now: '2026-01-01T00:01:30.000Z', offset_ms: 90_000, jobs_run: 0 });
    expect((await t.call('GET', '/_mock/clock', { key: 'test_other' })).body.offset_ms).toBe(0);
    const task = await createImageTask(t);
    expect(task.created_at).toBe('2026-01-01T00:01:30.000Z');
    const back = await t.call('POST', '/_mock/clock/advance', { body: { ms: -1 } });
    expect(back.status).toBe(400);
    expect(back.body.error).toMatch(/"ms" must be at least 0/);
  });

  it('PATCH /_mock/settings immediate completes a test task right after creation', async () => {
    const t = makeApp();
    const settings = await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    expect(settings.body.completion).toEqual({ mode: 'immediate', delay_ms: 0 });
    const task = await createImageTask(t);
    expect(task.status).toBe('pending');
    const read = await t.call('GET', `/v1/task/${task.task_id}`);
    expect(read.body.status).toBe('completed');
    expect(read.body.response.annotations.length).toBeGreaterThan(0);
    // As the real test mode: cancelling a fresh test task is then a 400.
    expect((await t.call('POST', `/v1/task/${task.task_id}/cancel`)).status).toBe(400);
  });

  it('PATCH /_mock/settings delay completes after the delay on the virtual clock', async () => {
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'delay', delay_ms: 60_000 } } });
    const task = await createImageTask(t, { callback_url: undefined });
    await t.call('POST', '/_mock/clock/advance', { body: { ms: 59_999 } });
    expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    const advanced = await t.call('POST', '/_mock/clock/advance', { body: { ms: 1 } });
    expect(advanced.body.jobs_run).toBe(1);
    const done = await t.call('GET', `/v1/task/${task.task_id}`);
    expect(done.body).toMatchObject({ status: 'completed', completed_at: '2026-01-01T00:01:00.000Z' });
  });

  it('delay mode completes on real time too when the clock is the system clock', async () => {
    const { createApp } = await import('../src/app.js');
    const app = createApp({ config: { completion: { mode: 'delay', delay_ms: 30 } } });
    // Real time: the completion is waited for as the event it is, with no deadline of our own (the 30 ms
    // timer fires whenever a loaded machine gets to it; the test's own timeout is the only bound).
    const completed = new Promise<string>((resolve) => {
      app.services.store.changes.subscribe((change) => {
        if (change.kind === 'event' && change.event.kind === 'task_completed')
          resolve(change.event.record.task.task_id);
      });
    });
    const auth = { authorization: basic('test_rt') };
    const created = await (
      await app.request('/v1/task/imageannotation', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          attachment: 'https://x.test/a.png',
          geometries: { point: { objects_to_annotate: ['a'] } },
        }),
      })
    ).json();
    expect(await completed).toBe(created.task_id);
    const read = await (await app.request(`/v1/task/${created.task_id}`, { headers: auth })).json();
    expect(read.status).toBe('completed');
    app.dispose();
  });

  it('PATCH /_mock/settings rejects unknown modes and fields', async () => {
    const t = makeApp();
    expect((await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'soon' } } })).body.error).toMatch(
      /"completion.mode" must be one of "manual", "immediate", "delay"/,
    );
    expect((await t.call('PATCH', '/_mock/settings', { body: { speed: 1 } })).body.error).toMatch(
      /"speed" is not an allowed parameter/,
    );
  });

  it('the --completion default applies to test keys; live keys start manual', async () => {
    const t = makeApp({ config: { completion: { mode: 'immediate', delay_ms: 0 } } });
    const test = await createImageTask(t);
    const live = await createImageTask(t, {}, 'live_acme');
    expect((await t.call('GET', `/v1/task/${test.task_id}`)).body.status).toBe('completed');
    expect((await t.call('GET', `/v1/task/${live.task_id}`, { key: 'live_acme' })).body.status).toBe('pending');
  });

  it('POST /_mock/reset empties the caller tenant only', async () => {
    const t = makeApp();
    await createImageTask(t, { unique_id: 'r-1' });
    await createImageTask(t, {}, 'test_other');
    expect((await t.call('POST', '/_mock/reset')).body).toEqual({ result: 'success' });
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(0);
    expect((await t.call('GET', '/v1/tasks', { key: 'test_other' })).body.total).toBe(1);
    expect(
      (
        await t.call('POST', '/v1/task/imageannotation', {
          body: {
            attachment: 'https://x.test/a.png',
            geometries: { point: { objects_to_annotate: ['a'] } },
            unique_id: 'r-1',
          },
        })
      ).status,
    ).toBe(200);
  });

  it('GET and PUT /_mock/state round-trip a tenant into another', async () => {
    const t = makeApp();
    const a = await createImageTask(t, { unique_id: 's-1' });
    t.clock.advance(10);
    const b = await createImageTask(t, { tags: ['x'] });
    await t.call('POST', `/_mock/tasks/${a.task_id}/complete`);
    const state = (await t.call('GET', '/_mock/state')).body;
    expect(state.format).toBe('labelmock-state/1');
    expect(state.tasks).toHaveLength(2);
    const put = await t.call('PUT', '/_mock/state', { key: 'test_copy', body: state });
    expect(put.status).toBe(200);
    const list = await t.call('GET', '/v1/tasks', { key: 'test_copy' });
    expect(list.body.docs.map((d: { task_id: string }) => d.task_id)).toEqual([b.task_id, a.task_id]);
    expect((await t.call('GET', '/v1/tasks?tags=x', { key: 'test_copy' })).body.total).toBe(1);
    const dup = await t.call('POST', '/v1/task/imageannotation', {
      key: 'test_copy',
      body: {
        attachment: 'https://x.test/a.png',
        geometries: { point: { objects_to_annotate: ['a'] } },
        unique_id: 's-1',
      },
    });
    expect(dup.status).toBe(409);
  });

  it('PUT /_mock/state rejects a bad state and keeps the old one', async () => {
    const t = makeApp();
    await createImageTask(t);
    const state = (await t.call('GET', '/_mock/state')).body;
    const twice = { ...state, tasks: [state.tasks[0], state.tasks[0]] };
    const res = await t.call('PUT', '/_mock/state', { body: twice });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/repeats/);
    const live = await t.call('PUT', '/_mock/state', { key: 'live_acme', body: state });
    expect(live.body.error).toMatch(/"tasks\[0\].task.is_test" must be false/);
    expect((await t.call('PUT', '/_mock/state', { body: { format: 'x' } })).status).toBe(400);
    expect((await t.call('GET', '/v1/tasks')).body.total).toBe(1);
  });
});

describe('completion modes apply to every task type', () => {
  it('immediate mode completes a new task of each type with a synthesized response', async () => {
    const { existsSync } = await import('node:fs');
    const { fixture } = await import('../src/fixtures.js');
    const { TASK_TYPES } = await import('../src/domain/tasks/registry.js');
    const t = makeApp();
    await t.call('PATCH', '/_mock/settings', { body: { completion: { mode: 'immediate' } } });
    const types = Object.keys(TASK_TYPES).filter(
      (type) => !existsSync(new URL(`../fixtures/tasks/${type}.setup.json`, import.meta.url)),
    );
    expect(types.length).toBeGreaterThan(20);
    for (const type of types) {
      const body = {
        ...fixture<Record<string, unknown>>(`tasks/${type}.create.json`),
        callback_url: undefined,
        callback: undefined,
      };
      const created = await t.call('POST', `/v1/task/${type}`, { body });
      expect(created.status, `${type}: ${JSON.stringify(created.body)}`).toBe(200);
      const read = await withResultFile(t, (await t.call('GET', `/v1/task/${created.body.task_id}`)).body);
      expect(read.status, type).toBe('completed');
      expect(TASK_TYPES[type]?.responseSchema.safeParse(read.response).success, type).toBe(true);
    }
  });
});
