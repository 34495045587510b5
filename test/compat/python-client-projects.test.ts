import { describe, expect, it } from 'vitest';
import { rawMultipart, upload } from '../file-helpers.js';
import { makeApp, type TestApp } from '../helpers.js';
import {
  PY_USER_AGENT,
  PyFile,
  PyProject,
  type PyRequest,
  PyTaskTemplate,
  parsesAs,
  pyCall,
  pyQuote,
} from './python-models.js';

/**
 * ScaleClient project and file methods (`scaleapi` 2.18.4): create_project's full payload
 * (params/datasetId null), quoted names, update_project kwargs, get_project_template, and the
 * multipart upload `requests` builds. Answers must parse in projects.py Project / TaskTemplate and
 * files.py File.
 */

const KEY = 'test_pyclient';
const py = (t: TestApp, req: PyRequest) => pyCall(t, KEY, req);
/** create_project(project_name, task_type, params=None, rapid=False, studio=False, dataset_id=None). */
const createProject = (
  t: TestApp,
  name: string,
  type = 'imageannotation',
  params: Record<string, unknown> | null = null,
) =>
  py(t, {
    method: 'POST',
    endpoint: 'projects',
    body: { type, name, params, rapid: false, studio: false, datasetId: null },
  });

describe('Python client: project methods', () => {
  it('create_project: params None and datasetId None are accepted; param_history is an empty list', async () => {
    const t = makeApp();
    const res = await createProject(t, 'scaleapi-python-sdk');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyProject, res.body)).toMatchObject({
      name: 'scaleapi-python-sdk',
      type: 'imageannotation',
      param_history: [],
    });
  });

  it('create_project: params become version 0 with its instruction (Project.version, .instruction)', async () => {
    const t = makeApp();
    const res = await createProject(t, 'kittens', 'imageannotation', { instruction: 'Please label the kittens' });
    const project = parsesAs(PyProject, res.body);
    expect(project.param_history.at(-1)).toMatchObject({ version: 0, instruction: 'Please label the kittens' });
  });

  it('create_project: a used name is a 409 with an error message', async () => {
    const t = makeApp();
    await createProject(t, 'p');
    const res = await createProject(t, 'p');
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('get_project: the name goes through quote_string; an unknown one is a 404 (test_client creates it)', async () => {
    const t = makeApp();
    await createProject(t, 'a/b c|d');
    const res = await py(t, { method: 'GET', endpoint: `projects/${pyQuote('a/b c|d')}` });
    expect(parsesAs(PyProject, res.body).name).toBe('a/b c|d');
    expect((await py(t, { method: 'GET', endpoint: 'projects/scaleapi-python-sdk' })).status).toBe(404);
  });

  it('projects / get_projects: GET projects answers a bare array of projects', async () => {
    const t = makeApp();
    await createProject(t, 'p1');
    await createProject(t, 'p2');
    const res = await py(t, { method: 'GET', endpoint: 'projects' });
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.map((p: unknown) => parsesAs(PyProject, p).name).sort()).toEqual(['p1', 'p2']);
  });

  it('update_project: kwargs are the setParams body; each call appends a version the client reads last', async () => {
    const t = makeApp();
    await createProject(t, 'p 1', 'imageannotation', { instruction: 'v0' });
    const endpoint = `projects/${pyQuote('p 1')}/setParams`;
    const first = parsesAs(PyProject, (await py(t, { method: 'POST', endpoint, body: { instruction: 'v1' } })).body);
    expect(first.param_history.at(-1)).toMatchObject({ version: 1, instruction: 'v1' });
    const patched = await py(t, {
      method: 'POST',
      endpoint,
      body: { patch: true, geometries: { box: { objects_to_annotate: ['cat'] } } },
    });
    expect(parsesAs(PyProject, patched.body).param_history.at(-1)).toMatchObject({ version: 2, instruction: 'v1' });
  });
});

describe('Python client: get_project_template (GET projects/{name}/taskTemplates)', () => {
  it('get_project_template: a textcollection project answers its template with template_variables', async () => {
    const t = makeApp();
    expect((await createProject(t, 'my texts', 'textcollection')).status).toBe(200);
    const res = await py(t, { method: 'GET', endpoint: `projects/${pyQuote('my texts')}/taskTemplates` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const template = parsesAs(PyTaskTemplate, res.body);
    expect(typeof template.template_variables).toBe('object');
  });

  it('get_project_template: a chat project has a template too', async () => {
    const t = makeApp();
    expect((await createProject(t, 'chats', 'chat')).status).toBe(200);
    const res = await py(t, { method: 'GET', endpoint: 'projects/chats/taskTemplates' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    parsesAs(PyTaskTemplate, res.body);
  });

  it('get_project_template: a type without templates is a 400, an unknown project a 404, with an error', async () => {
    const t = makeApp();
    await createProject(t, 'boxes', 'imageannotation');
    const wrongType = await py(t, { method: 'GET', endpoint: 'projects/boxes/taskTemplates' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toEqual(expect.any(String));
    const missing = await py(t, { method: 'GET', endpoint: 'projects/nope/taskTemplates' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual(expect.any(String));
  });
});

describe('Python client: file methods', () => {
  it('upload_file: data fields first, then a file part without Content-Type; the answer parses as File', async () => {
    const t = makeApp();
    await createProject(t, 'scaleapi-python-sdk');
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
    const body = rawMultipart({ project_name: 'scaleapi-python-sdk' }, { filename: 'test_image.png', content: png });
    const res = await upload(t, body, { key: KEY, headers: { 'user-agent': PY_USER_AGENT, accept: '*/*' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyFile, res.body).attachment_url).toEqual(expect.any(String));
  });

  it('import_file: {"file_url", **kwargs} answers a File with id and attachment_url', async () => {
    const t = makeApp();
    await createProject(t, 'scaleapi-python-sdk');
    const res = await py(t, {
      method: 'POST',
      endpoint: 'files/import',
      body: {
        file_url: 'https://static.scale.com/uploads/selfserve-sample-image.png',
        project_name: 'scaleapi-python-sdk',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    parsesAs(PyFile, res.body);
  });
});
