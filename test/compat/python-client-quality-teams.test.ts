import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import {
  PyAssignments,
  PyProjectGroup,
  PyQualityTask,
  type PyRequest,
  PyStudioBatch,
  PyTeammate,
  parsesAs,
  pyCall,
  pyQuote,
} from './python-models.js';

/**
 * ScaleClient quality-task, team and Studio methods (`scaleapi` 2.18.4). create_evaluation_task and
 * create_training_task send the create_task parameters plus expected_response to
 * evaluation_tasks/{type} and training_tasks/{type}; their classes read json["id"] and
 * json["expected_response"]. Team and Studio answers must parse in teams.py and studio.py.
 */

const KEY = 'test_pyclient';
const py = (t: TestApp, req: PyRequest) => pyCall(t, KEY, req);
const GEOMETRIES = { box: { objects_to_annotate: ['cow'], min_height: 5, min_width: 5 } };
/** Shaped like a completed imageannotation response, as the client's docstring asks. */
const EXPECTED = {
  annotations: [
    {
      uuid: '3f6c1a52-0000-4000-8000-000000000001',
      type: 'box',
      label: 'cow',
      left: 10,
      top: 10,
      width: 20,
      height: 20,
    },
  ],
};

const createProject = (t: TestApp, name: string, flags: { rapid?: boolean; studio?: boolean } = {}) =>
  py(t, {
    method: 'POST',
    endpoint: 'projects',
    body: {
      type: 'imageannotation',
      name,
      params: { geometries: GEOMETRIES },
      rapid: flags.rapid ?? false,
      studio: flags.studio ?? false,
      datasetId: null,
    },
  });
/** What a caller passes as **kwargs: the create_task parameters of the project's type, plus the answers. */
const qualityBody = (project: string, extra: Record<string, unknown> = {}) => ({
  project,
  attachment: 'http://i.imgur.com/v4cBreD.jpg',
  attachment_type: 'image',
  expected_response: EXPECTED,
  ...extra,
});

describe('Python client: create_evaluation_task / create_training_task', () => {
  for (const kind of ['evaluation', 'training'] as const) {
    it(`create_${kind}_task: POST ${kind}_tasks/imageannotation of a rapid project has expected_response`, async () => {
      const t = makeApp();
      expect((await createProject(t, 'rapid one', { rapid: true })).status).toBe(200);
      const res = await py(t, {
        method: 'POST',
        endpoint: `${kind}_tasks/imageannotation`,
        body: qualityBody('rapid one'),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(parsesAs(PyQualityTask, res.body).expected_response).toMatchObject(EXPECTED);
    });
  }

  it('create_evaluation_task: an initial_response (review-phase evaluation task) is accepted too', async () => {
    const t = makeApp();
    await createProject(t, 'rapid one', { rapid: true });
    const initial = { annotations: [] };
    const res = await py(t, {
      method: 'POST',
      endpoint: 'evaluation_tasks/imageannotation',
      body: qualityBody('rapid one', { initial_response: initial }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyQualityTask, res.body)).toMatchObject({ expected_response: EXPECTED, initial_response: initial });
  });

  it('create_training_task, create_evaluation_task: no expected_response or a non-rapid project is a 400', async () => {
    const t = makeApp();
    await createProject(t, 'rapid one', { rapid: true });
    await createProject(t, 'plain');
    for (const endpoint of ['training_tasks/imageannotation', 'evaluation_tasks/imageannotation']) {
      const noAnswer = await py(t, {
        method: 'POST',
        endpoint,
        body: { project: 'rapid one', attachment: 'http://i.imgur.com/v4cBreD.jpg' },
      });
      expect(noAnswer.status, endpoint).toBe(400);
      expect(noAnswer.body.error).toEqual(expect.any(String));
      expect((await py(t, { method: 'POST', endpoint, body: qualityBody('plain') })).status, endpoint).toBe(400);
    }
  });
});

describe('Python client: team methods', () => {
  it('list_teammates: GET teams answers a non-empty Teammate array (test_list_teammates asserts len > 0)', async () => {
    const res = await py(makeApp(), { method: 'GET', endpoint: 'teams' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const m of res.body) parsesAs(PyTeammate, m);
  });

  it('invite_teammates, update_teammates_role: {"emails", "team_role"} answer the team as Teammates', async () => {
    const t = makeApp();
    const invited = await py(t, {
      method: 'POST',
      endpoint: 'teams/invite',
      body: { emails: ['ann@example.com'], team_role: 'member' },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(invited.body.map((m: unknown) => parsesAs(PyTeammate, m).email)).toContain('ann@example.com');
    // a role can change once the invitation is accepted (the control plane plays the invitee)
    await t.call('POST', '/_mock/teams/accept', { key: KEY, body: { emails: ['ann@example.com'] } });
    const updated = await py(t, {
      method: 'POST',
      endpoint: 'teams/set_role',
      body: { emails: ['ann@example.com'], team_role: 'manager' },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    for (const m of updated.body) parsesAs(PyTeammate, m);
  });
});

/** A Studio project with an odd name, a batch, and an active labeler (accepted through the control plane). */
async function studio(t: TestApp) {
  await createProject(t, 'signs/2 x', { studio: true });
  await py(t, {
    method: 'POST',
    endpoint: 'batches',
    body: {
      project: 'signs/2 x',
      name: 'night b',
      calibration_batch: false,
      self_label_batch: false,
      callback: '',
      metadata: {},
    },
  });
  await py(t, {
    method: 'POST',
    endpoint: 'task/imageannotation',
    body: { batch: 'night b', attachment: 'http://i.imgur.com/v4cBreD.jpg' },
  });
  await py(t, {
    method: 'POST',
    endpoint: 'teams/invite',
    body: { emails: ['ann@example.com'], team_role: 'labeler' },
  });
  await t.call('POST', '/_mock/teams/accept', { key: KEY, body: { emails: ['ann@example.com'] } });
}

/** The studio project, with ann@example.com assigned to it (add_studio_assignments). */
async function studioWithAnn(t: TestApp) {
  await studio(t);
  return py(t, {
    method: 'POST',
    endpoint: 'studio/assignments/add',
    body: { emails: ['ann@example.com'], projects: ['signs/2 x'] },
  });
}

describe('Python client: Studio methods', () => {
  it('add_studio_assignments, list_ and remove_studio_assignments: {email: [projects]} maps', async () => {
    const t = makeApp();
    const added = await studioWithAnn(t);
    expect(parsesAs(PyAssignments, added.body)['ann@example.com']).toEqual(['signs/2 x']);
    expect(
      parsesAs(PyAssignments, (await py(t, { method: 'GET', endpoint: 'studio/assignments' })).body)['ann@example.com'],
    ).toEqual(['signs/2 x']);
    const removed = await py(t, {
      method: 'POST',
      endpoint: 'studio/assignments/remove',
      body: { emails: ['ann@example.com'], projects: ['signs/2 x'] },
    });
    expect(parsesAs(PyAssignments, removed.body)['ann@example.com']).toEqual([]);
  });

  it('create_project_group, list_project_groups, update_project_group (PUT): quoted names', async () => {
    const t = makeApp();
    await studioWithAnn(t);
    const base = `studio/projects/${pyQuote('signs/2 x')}/groups`;
    const created = await py(t, {
      method: 'POST',
      endpoint: base,
      body: { emails: ['ann@example.com'], name: 'night crew' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(parsesAs(PyProjectGroup, created.body)).toMatchObject({ name: 'night crew', numWorkers: 1 });
    const listed = await py(t, { method: 'GET', endpoint: base });
    expect(listed.body.map((g: unknown) => parsesAs(PyProjectGroup, g).name)).toEqual(['night crew']);
    const updated = await py(t, {
      method: 'PUT',
      endpoint: `${base}/${pyQuote('night crew')}`,
      body: { add_emails: [], remove_emails: ['ann@example.com'] },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(parsesAs(PyProjectGroup, updated.body).numWorkers).toBe(0);
  });

  it('list_studio_batches, assign_studio_batches (PUT {"groups"}), (re)set priorities: StudioBatch', async () => {
    const t = makeApp();
    await studioWithAnn(t);
    await py(t, {
      method: 'POST',
      endpoint: `studio/projects/${pyQuote('signs/2 x')}/groups`,
      body: { emails: ['ann@example.com'], name: 'crew' },
    });
    const listed = await py(t, { method: 'GET', endpoint: 'studio/batches' });
    expect(listed.body.map((b: unknown) => parsesAs(PyStudioBatch, b).name)).toEqual(['night b']);
    const assigned = await py(t, {
      method: 'PUT',
      endpoint: `studio/batches/${pyQuote('night b')}`,
      body: { groups: ['crew'] },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(parsesAs(PyStudioBatch, assigned.body).groups).toHaveLength(1);
    const prioritized = await py(t, {
      method: 'POST',
      endpoint: 'studio/batches/set_priorities',
      body: { batches: [{ name: 'night b' }] },
    });
    expect(prioritized.body.map((b: unknown) => parsesAs(PyStudioBatch, b).studioPriority)).toEqual([1]);
    const reset = await py(t, { method: 'POST', endpoint: 'studio/batches/reset_priorities' });
    expect(reset.status).toBe(200);
    for (const b of reset.body) parsesAs(PyStudioBatch, b);
  });
});
