import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

const GEOMETRIES = { box: { objects_to_annotate: ['sign'] } };

/** A Studio project `signs` with batches b1, cal (calibration) and b3, in that creation order; ann is assigned. */
async function studio(t: TestApp) {
  await t.call('POST', '/v1/projects', {
    body: { type: 'imageannotation', name: 'signs', studio: true, params: { geometries: GEOMETRIES } },
  });
  await t.call('POST', '/v1/projects', {
    body: { type: 'imageannotation', name: 'plain', params: { geometries: GEOMETRIES } },
  });
  for (const [name, calibration_batch] of [
    ['b1', false],
    ['cal', true],
    ['b3', false],
  ] as const) {
    t.clock.advance(1000);
    await t.call('POST', '/v1/batches', { body: { project: 'signs', name, calibration_batch } });
  }
  await t.call('POST', '/v1/batches', { body: { project: 'plain', name: 'p1' } });
  await t.call('POST', '/v1/teams/invite', { body: { emails: ['ann@example.com'], team_role: 'labeler' } });
  await t.call('POST', '/_mock/teams/accept', { body: { emails: ['ann@example.com'] } });
  await t.call('POST', '/v1/studio/assignments/add', { body: { emails: ['ann@example.com'], projects: ['signs'] } });
  await t.call('POST', '/v1/studio/projects/signs/groups', { body: { name: 'night', emails: ['ann@example.com'] } });
}
const names = (res: { body: { name: string }[] }) => res.body.map((b) => b.name);
const task = (t: TestApp, batch: string) =>
  t.call('POST', '/v1/task/imageannotation', { body: { project: 'signs', batch, attachment: 'https://x.test/a.png' } });

describe('studio batches', () => {
  it('GET /v1/studio/batches lists pending Studio batches, calibration first, then by creation', async () => {
    const t = makeApp();
    await studio(t);
    await task(t, 'b1');
    const res = await t.call('GET', '/v1/studio/batches');
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['cal', 'b1', 'b3']);
    expect(res.body[1]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'b1',
      projectId: expect.stringMatching(/^[0-9a-f]{24}$/),
      projectName: 'signs',
      batchType: 'Production',
      studioPriority: 2,
      total: 1,
      completed: 0,
      groups: [],
    });
    expect(res.body[0]).toMatchObject({ batchType: 'Calibration', studioPriority: 1 });
  });

  it('POST /v1/studio/batches/set_priorities reorders; new batches follow; reset_priorities undoes it', async () => {
    const t = makeApp();
    await studio(t);
    const set = await t.call('POST', '/v1/studio/batches/set_priorities', {
      body: { batches: [{ name: 'b3' }, { name: 'b1' }, { name: 'cal' }] },
    });
    expect(set.status).toBe(200);
    expect(names(set)).toEqual(['b3', 'b1', 'cal']);
    expect(set.body.map((b: { studioPriority: number }) => b.studioPriority)).toEqual([1, 2, 3]);
    await t.call('POST', '/v1/batches', { body: { project: 'signs', name: 'b4' } });
    expect(names(await t.call('GET', '/v1/studio/batches'))).toEqual(['b3', 'b1', 'cal', 'b4']);
    const reset = await t.call('POST', '/v1/studio/batches/reset_priorities', { raw: '' });
    expect(reset.status).toBe(200);
    expect(names(reset)).toEqual(['cal', 'b1', 'b3', 'b4']);
  });

  it('POST /v1/studio/batches/set_priorities takes whole batch objects from the list', async () => {
    const t = makeApp();
    await studio(t);
    const listed = (await t.call('GET', '/v1/studio/batches')).body;
    const res = await t.call('POST', '/v1/studio/batches/set_priorities', { body: { batches: [...listed].reverse() } });
    expect(names(res)).toEqual(['b3', 'b1', 'cal']);
  });

  const badOrders: [string, unknown, number, RegExp][] = [
    [
      'a missing pending batch',
      [{ name: 'b3' }, { name: 'b1' }],
      400,
      /"batches" must list every pending Studio batch; missing 1: "cal"/,
    ],
    [
      'a repeated batch',
      [{ name: 'b3' }, { name: 'b3' }, { name: 'b1' }, { name: 'cal' }],
      400,
      /"batches\[1\].name" repeats batch "b3"/,
    ],
    ['an unknown batch', [{ name: 'nope' }], 404, /Batch not found: "batches\[0\].name" "nope"/],
    [
      'a batch of a plain project',
      [{ name: 'p1' }],
      400,
      /"batches\[0\].name" names batch "p1" of project "plain", which is not a Studio project/,
    ],
    ['no batches', [], 400, /"batches" must have at least 1 item/],
  ];
  for (const [what, batches, status, message] of badOrders) {
    it(`POST /v1/studio/batches/set_priorities with ${what} answers ${status}; the order stays`, async () => {
      const t = makeApp();
      await studio(t);
      const res = await t.call('POST', '/v1/studio/batches/set_priorities', { body: { batches } });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
      expect(names(await t.call('GET', '/v1/studio/batches'))).toEqual(['cal', 'b1', 'b3']);
    });
  }

  it('completed batches leave the list', async () => {
    const t = makeApp();
    await studio(t);
    const { body } = await task(t, 'b1');
    await t.call('POST', '/v1/batches/b1/finalize');
    await t.call('POST', `/_mock/tasks/${body.task_id}/complete`);
    expect(names(await t.call('GET', '/v1/studio/batches'))).toEqual(['cal', 'b3']);
  });

  it('PUT /v1/studio/batches/{batch} sets groups; an e-mail makes a single-member group', async () => {
    const t = makeApp();
    await studio(t);
    const res = await t.call('PUT', '/v1/studio/batches/b1', { body: { groups: ['night', 'ann@example.com'] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'b1', groups: ['night', 'ann@example.com'], studioPriority: 2 });
    const groups = (await t.call('GET', '/v1/studio/projects/signs/groups')).body;
    expect(groups[1]).toMatchObject({ name: 'ann@example.com', isSingleton: true, numWorkers: 1 });
    const replaced = await t.call('POST', '/v1/studio/batches/b1', { body: { groups: ['night'] } });
    expect(replaced.body.groups).toEqual(['night']);
    expect((await t.call('GET', '/v1/studio/batches')).body[1].groups).toEqual(['night']);
  });

  const badGroups: [string, string, unknown, number, RegExp][] = [
    ['an unknown group', 'b1', ['day'], 404, /"groups\[0\]" "day" is not a group of project "signs"/],
    [
      'an e-mail of someone not assigned',
      'b1',
      ['bob@example.com'],
      404,
      /"groups\[0\]" bob@example.com is not on the team/,
    ],
    ['an unknown batch', 'nope', ['night'], 404, /Batch "nope" not found/],
    [
      'a batch of a plain project',
      'p1',
      ['night'],
      400,
      /"batch" names batch "p1" of project "plain", which is not a Studio project/,
    ],
    ['groups that are not strings', 'b1', [1], 400, /"groups\[0\]" must be a string/],
  ];
  for (const [what, batch, groups, status, message] of badGroups) {
    it(`PUT /v1/studio/batches/{batch} with ${what} answers ${status}`, async () => {
      const t = makeApp();
      await studio(t);
      const res = await t.call('PUT', `/v1/studio/batches/${batch}`, { body: { groups } });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
    });
  }

  it("POST /v1/studio/projects/{name}/send_tasks_to_completed completes listed batches' pending tasks", async () => {
    const t = makeApp();
    await studio(t);
    const a = (await task(t, 'b1')).body;
    const b = (await task(t, 'b3')).body;
    await t.call('POST', '/v1/batches/b1/finalize');
    const res = await t.call('POST', '/v1/studio/projects/signs/send_tasks_to_completed', {
      body: { batches: ['b1'] },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', project: 'signs', batches: ['b1'], tasks_completed: 1 });
    expect((await t.call('GET', `/v1/task/${a.task_id}`)).body.status).toBe('completed');
    expect((await t.call('GET', `/v1/task/${b.task_id}`)).body.status).toBe('pending');
    expect((await t.call('GET', '/v1/batches/b1')).body.status).toBe('completed');
  });

  it('send_tasks_to_completed: all_batches wins over batches; the GET form takes the query', async () => {
    const t = makeApp();
    await studio(t);
    await task(t, 'b1');
    await task(t, 'b3');
    const res = await t.call('GET', '/v1/studio/projects/signs/send_tasks_to_completed?all_batches=True&batches=b1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', project: 'signs', batches: ['b1', 'cal', 'b3'], tasks_completed: 2 });
  });

  const badSends: [string, string, Record<string, unknown>, number, RegExp][] = [
    ['neither batches nor all_batches', 'signs', {}, 400, /"batches" is required unless all_batches is true/],
    [
      'a batch of another project',
      'signs',
      { batches: ['p1'] },
      400,
      /"batches\[0\]" names batch "p1" of project "plain", not "signs"/,
    ],
    ['an unknown batch', 'signs', { batches: ['nope'] }, 404, /Batch "nope" not found/],
    [
      'a plain project',
      'plain',
      { all_batches: true },
      400,
      /"projectName" names project "plain", which is not a Studio project/,
    ],
    ['an unknown project', 'nope', { all_batches: true }, 404, /Project "nope" not found/],
  ];
  for (const [what, project, body, status, message] of badSends) {
    it(`send_tasks_to_completed with ${what} answers ${status}`, async () => {
      const t = makeApp();
      await studio(t);
      const res = await t.call('POST', `/v1/studio/projects/${project}/send_tasks_to_completed`, { body });
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ status_code: status, error: expect.stringMatching(message) });
    });
  }
});
