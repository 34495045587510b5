import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from './helpers.js';

const GEOMETRIES = { box: { objects_to_annotate: ['car'] } };

async function project(t: TestApp, body: Record<string, unknown> = {}, key?: string) {
  const res = await t.call('POST', '/v1/projects', {
    key,
    body: { type: 'imageannotation', name: 'streets', ...body },
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
}

const createTask = (t: TestApp, body: Record<string, unknown>, key?: string) =>
  t.call('POST', '/v1/task/imageannotation', { key, body: { attachment: 'https://x.test/a.png', ...body } });

describe('projects', () => {
  it('POST /v1/projects creates a project; GET and POST /v1/projects/{name} read it', async () => {
    const t = makeApp();
    const created = await project(t);
    expect(created).toMatchObject({
      type: 'imageannotation',
      name: 'streets',
      param_history: [],
      rapid: false,
      studio: false,
      archived: false,
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect((await t.call('GET', '/v1/projects/streets')).body).toEqual(created);
    expect((await t.call('POST', '/v1/projects/streets')).body).toEqual(created);
    expect((await t.call('GET', '/v1/projects/none')).status).toBe(404);
  });

  it('POST /v1/projects with params starts param_history at version 0', async () => {
    const t = makeApp();
    const created = await project(t, { params: { geometries: GEOMETRIES, instruction: 'Box cars.' } });
    expect(created.param_history).toEqual([
      { version: 0, created_at: '2026-01-01T00:00:00.000Z', geometries: GEOMETRIES, instruction: 'Box cars.' },
    ]);
  });

  const rejections: [string, Record<string, unknown>, number, RegExp][] = [
    ['an unknown type', { type: 'paintannotation' }, 400, /"type" must be a known task type/],
    ['a missing name', { name: undefined }, 400, /"name" is required/],
    [
      'invalid default params',
      { params: { geometries: { box: { objects_to_annotate: [] } } } },
      400,
      /"params.geometries.box.objects_to_annotate" must have at least 1 item/,
    ],
    ['an unknown default param', { params: { colour: 'red' } }, 400, /"params.colour" is not an allowed parameter/],
    [
      'a pipeline on a non-studio project',
      { pipeline: 'standard_task' },
      400,
      /"pipeline" is only allowed for studio projects/,
    ],
    [
      'consensus_attempts without consensus pipeline',
      { studio: true, pipeline: 'standard_task', consensus_attempts: 3 },
      400,
      /"consensus_attempts" is only allowed/,
    ],
    ['rapid and studio at once', { rapid: true, studio: true }, 400, /"studio" cannot be true together with rapid/],
  ];
  for (const [what, body, status, message] of rejections) {
    it(`POST /v1/projects rejects ${what}`, async () => {
      const t = makeApp();
      const res = await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p', ...body } });
      expect(res.status).toBe(status);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /v1/projects with a name the account has is a 409, also from the other mode', async () => {
    const t = makeApp();
    await project(t);
    expect((await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'streets' } })).status).toBe(
      409,
    );
    expect(
      (await t.call('POST', '/v1/projects', { key: 'live_acme', body: { type: 'imageannotation', name: 'streets' } }))
        .status,
    ).toBe(409);
    expect(
      (await t.call('POST', '/v1/projects', { key: 'test_other', body: { type: 'imageannotation', name: 'streets' } }))
        .status,
    ).toBe(200);
  });

  it('GET /v1/projects returns a bare array; archived filters; a body-less POST lists too', async () => {
    const t = makeApp();
    await project(t);
    await project(t, { name: 'fields' });
    const list = await t.call('GET', '/v1/projects');
    expect(list.body.map((p: { name: string }) => p.name)).toEqual(['streets', 'fields']);
    expect((await t.call('GET', '/v1/projects?archived=True')).body).toEqual([]);
    expect((await t.call('GET', '/v1/projects?archived=false')).body).toHaveLength(2);
    expect((await t.call('POST', '/v1/projects', { raw: '' })).body).toHaveLength(2);
  });

  it('POST /v1/projects/{name}/setParams appends versions; patch merges at the top level only', async () => {
    const t = makeApp();
    await project(t, { params: { geometries: GEOMETRIES, padding: 5 } });
    t.clock.advance(1000);
    const replaced = await t.call('POST', '/v1/projects/streets/setParams', {
      body: { instruction: 'v1', geometries: { point: { objects_to_annotate: ['head'] } } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.param_history[1]).toEqual({
      version: 1,
      created_at: '2026-01-01T00:00:01.000Z',
      instruction: 'v1',
      geometries: { point: { objects_to_annotate: ['head'] } },
    });
    const patched = await t.call('POST', '/v1/projects/streets/setParams', { body: { patch: true, padding: 9 } });
    expect(patched.body.param_history[2]).toMatchObject({
      version: 2,
      instruction: 'v1',
      padding: 9,
      geometries: { point: { objects_to_annotate: ['head'] } },
    });
    expect(patched.body).toMatchObject({
      pipelineName: 'standard_task',
      projectType: 'imageannotation',
      pinned: false,
      taxonomy: null,
      datasetLinks: [],
    });
    const bad = await t.call('POST', '/v1/projects/streets/setParams', { body: { priority: 7 } });
    expect(bad.body.error).toMatch(/"priority" must be 10, 20 or 30/);
    expect((await t.call('POST', '/v1/projects/none/setParams', { body: {} })).status).toBe(404);
  });

  it('POST /v1/projects/{name}/setOntology keeps a history and refuses repeated choices', async () => {
    const t = makeApp();
    await project(t);
    const res = await t.call('POST', '/v1/projects/streets/setOntology', {
      body: { name: 'v1', ontology: ['car', { choice: 'vehicle', subchoices: ['bus'] }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.ontologies).toEqual([
      {
        name: 'v1',
        ontology: ['car', { choice: 'vehicle', subchoices: ['bus'] }],
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ]);
    const dup = await t.call('POST', '/v1/projects/streets/setOntology', {
      body: { name: 'v2', ontology: ['bus', { choice: 'vehicle', subchoices: ['bus'] }] },
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatch(/"ontology" must not repeat choices or subchoices \(repeated: bus\)/);
  });

  it('updatePipelineConfig works at both paths for studio projects only', async () => {
    const t = makeApp();
    await project(t, { studio: true, name: 'studio-1' });
    await project(t, { name: 'plain' });
    const byPath = await t.call('POST', '/v1/projects/studio-1/updatePipelineConfig', {
      body: { pipeline: 'consensus_task', consensus_attempts: 3 },
    });
    expect(byPath.body).toMatchObject({ pipeline: 'consensus_task', consensus_attempts: 3 });
    const byBody = await t.call('POST', '/v1/projects/updatePipelineConfig', {
      body: { name: 'studio-1', pipeline: 'standard_task' },
    });
    expect(byBody.body.pipeline).toBe('standard_task');
    expect(byBody.body).not.toHaveProperty('consensus_attempts');
    expect(
      (await t.call('POST', '/v1/projects/plain/updatePipelineConfig', { body: { pipeline: 'standard_task' } })).body
        .error,
    ).toMatch(/not a studio project/);
    expect(
      (await t.call('POST', '/v1/projects/updatePipelineConfig', { body: { pipeline: 'standard_task' } })).body.error,
    ).toMatch(/"name" is required/);
  });

  it('project names travel percent-encoded in paths, slashes and spaces included', async () => {
    const t = makeApp();
    await project(t, { name: 'team a/streets' });
    const res = await t.call('GET', `/v1/projects/${encodeURIComponent('team a/streets')}`);
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('team a/streets');
  });
});

describe('task creation with a project', () => {
  async function threeVersions(t: TestApp) {
    await project(t, { params: { geometries: GEOMETRIES, instruction: 'v0 rules', padding: 0 } });
    await t.call('POST', '/v1/projects/streets/setParams', {
      body: { geometries: GEOMETRIES, instruction: 'v1 rules', padding: 1 },
    });
    await t.call('POST', '/v1/projects/streets/setParams', {
      body: { patch: true, instruction: 'v2 rules', padding: 2 },
    });
  }

  it('inherits the latest version, an older one on request, or nothing with -1', async () => {
    const t = makeApp();
    await threeVersions(t);
    const latest = await createTask(t, { project: 'streets', instruction: 'Task note.' });
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({
      project: 'streets',
      project_param_version: 2,
      instruction: 'Task note.\n\nv2 rules',
    });
    expect(latest.body.params).toMatchObject({ geometries: GEOMETRIES, padding: 2 });
    const older = await createTask(t, { project: 'streets', project_version: 0 });
    expect(older.body).toMatchObject({ project_param_version: 0, instruction: 'v0 rules' });
    expect(older.body.params.padding).toBe(0);
    const none = await createTask(t, {
      project: 'streets',
      project_version: -1,
      geometries: { point: { objects_to_annotate: ['x'] } },
    });
    expect(none.body.project_param_version).toBeNull();
    expect(none.body).not.toHaveProperty('instruction');
    expect(none.body.params).not.toHaveProperty('padding');
  });

  it('task values win over project values', async () => {
    const t = makeApp();
    await threeVersions(t);
    const res = await createTask(t, { project: 'streets', padding: 7 });
    expect(res.body.params.padding).toBe(7);
  });

  it('a required parameter may come from the project, and is still required without one', async () => {
    const t = makeApp();
    await project(t);
    const missing = await createTask(t, { project: 'streets' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/"geometries" is required/);
    expect(missing.body.error).not.toMatch(/project_version/);
    await t.call('POST', '/v1/projects/streets/setParams', { body: { geometries: GEOMETRIES } });
    expect((await createTask(t, { project: 'streets' })).status).toBe(200);
  });

  it('a project without versions gives project_param_version null', async () => {
    const t = makeApp();
    await project(t);
    const res = await createTask(t, { project: 'streets', geometries: GEOMETRIES });
    expect(res.body.project_param_version).toBeNull();
  });

  const errors: [string, (t: TestApp) => Promise<unknown>, Record<string, unknown>, number, RegExp][] = [
    [
      'an unknown project',
      async () => undefined,
      { project: 'nowhere', geometries: GEOMETRIES },
      404,
      /Project "nowhere" not found/,
    ],
    [
      'a project of the other mode',
      (t) => project(t, {}, 'live_acme'),
      { project: 'streets', geometries: GEOMETRIES },
      400,
      /created with a live key; a test key cannot use it/,
    ],
    [
      'an unknown project_version',
      (t) => project(t, { params: { geometries: GEOMETRIES } }),
      { project: 'streets', project_version: 4 },
      400,
      /"project_version" 4 does not exist in project "streets" \(versions: 0\)/,
    ],
    [
      'project_version without project',
      async () => undefined,
      { project_version: 1, geometries: GEOMETRIES },
      400,
      /"project_version" needs a project/,
    ],
    [
      'a rapid project without batch',
      (t) => project(t, { rapid: true, params: { geometries: GEOMETRIES } }),
      { project: 'streets' },
      400,
      /"batch" is required for tasks of rapid project "streets"/,
    ],
  ];
  for (const [what, setup, body, status, message] of errors) {
    it(`POST /v1/task/imageannotation with ${what} is a ${status}`, async () => {
      const t = makeApp();
      await setup(t);
      const res = await createTask(t, body);
      expect(res.status).toBe(status);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /v1/task/imageannotation into a project of another type is a 400', async () => {
    const t = makeApp();
    t.app.services.store.accountState('acme').addProject(
      {
        type: 'textcollection',
        name: 'other-type',
        param_history: [],
        created_at: '2026-01-01T00:00:00.000Z',
        rapid: false,
        studio: false,
        archived: false,
        ontologies: [],
      },
      'test',
    );
    const res = await createTask(t, { project: 'other-type', geometries: GEOMETRIES });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /project "other-type" of type textcollection; this endpoint creates imageannotation tasks/,
    );
  });

  it('GET /v1/tasks?project= lists the project tasks', async () => {
    const t = makeApp();
    await project(t, { params: { geometries: GEOMETRIES } });
    await createTask(t, { project: 'streets' });
    await createTask(t, { geometries: GEOMETRIES });
    expect((await t.call('GET', '/v1/tasks?project=streets')).body.total).toBe(1);
  });
});

describe('what the official Python client sends', () => {
  it('create_project with params None, rapid/studio False and datasetId None is accepted', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/projects', {
      body: { type: 'imageannotation', name: 'py', params: null, rapid: false, studio: false, datasetId: null },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'py', rapid: false, studio: false, param_history: [] });
  });

  it('create_batch with callback "", both flags False and metadata {} is accepted', async () => {
    const t = makeApp();
    await project(t);
    const res = await t.call('POST', '/v1/batches', {
      body: {
        project: 'streets',
        name: 'py-b',
        calibration_batch: false,
        self_label_batch: false,
        callback: '',
        metadata: { lot: 1 },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'in_progress', metadata: { lot: 1 } });
  });

  it('create_task with project_param_version (an alias of project_version) picks that version', async () => {
    const t = makeApp();
    await project(t, { params: { geometries: GEOMETRIES, padding: 0 } });
    await t.call('POST', '/v1/projects/streets/setParams', { body: { geometries: GEOMETRIES, padding: 1 } });
    const res = await createTask(t, { project: 'streets', project_param_version: 0 });
    expect(res.body).toMatchObject({ project_param_version: 0, params: { padding: 0 } });
    expect(res.body.params).not.toHaveProperty('project_param_version');
  });
});
