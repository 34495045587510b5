import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import { PyBatch, PyProject, type PyRequest, PyTask, PyTaskFull, parsesAs, pyCall } from './python-models.js';

/**
 * The Python client sends `json=body or None`: an empty dict or list is never sent, the request goes
 * out with `Content-Type: application/json` and no body at all. So `set_task_metadata(id, {})`,
 * `set_task_tags(id, [])` or `update_project(name)` reach the mock body-less, and the only reading
 * that matches what the caller asked for is the empty value of the route's body.
 */

const KEY = 'test_pyclient';
const py = (t: TestApp, req: PyRequest) => pyCall(t, KEY, req);

async function setup(t: TestApp) {
  await py(t, {
    method: 'POST',
    endpoint: 'projects',
    body: {
      type: 'imageannotation',
      name: 'p',
      params: { geometries: { box: { objects_to_annotate: ['cow'] } } },
      rapid: false,
      studio: false,
      datasetId: null,
    },
  });
  await py(t, {
    method: 'POST',
    endpoint: 'batches',
    body: {
      project: 'p',
      name: 'b',
      calibration_batch: false,
      self_label_batch: false,
      callback: '',
      metadata: { x: 1 },
    },
  });
  const task = await py(t, {
    method: 'POST',
    endpoint: 'task/imageannotation',
    body: { project: 'p', attachment: 'http://i.imgur.com/v4cBreD.jpg', metadata: { x: 1 } },
  });
  expect(task.status, JSON.stringify(task.body)).toBe(200);
  return task.body.task_id as string;
}

describe('Python client: empty bodies are not sent', () => {
  it('set_task_metadata: {} goes out as no body and clears the metadata', async () => {
    const t = makeApp();
    const id = await setup(t);
    const res = await py(t, { method: 'POST', endpoint: `task/${id}/setMetadata`, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyTaskFull, res.body).metadata).toEqual({});
  });

  it('set_task_tags: [] goes out as no body and leaves the task without tags', async () => {
    const t = makeApp();
    const id = await setup(t);
    await py(t, { method: 'POST', endpoint: `task/${id}/tags`, body: ['a'] });
    const res = await py(t, { method: 'POST', endpoint: `task/${id}/tags`, body: [] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyTask, res.body).tags ?? []).toEqual([]);
  });

  it('add_task_tags and delete_task_tags: [] goes out as no body and changes nothing', async () => {
    const t = makeApp();
    const id = await setup(t);
    await py(t, { method: 'POST', endpoint: `task/${id}/tags`, body: ['a'] });
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await py(t, { method, endpoint: `task/${id}/tags`, body: [] });
      expect(res.status, `${method} ${JSON.stringify(res.body)}`).toBe(200);
      expect(parsesAs(PyTask, res.body).tags).toEqual(['a']);
    }
  });

  it('set_batch_metadata: {} goes out as no body and clears the batch metadata', async () => {
    const t = makeApp();
    await setup(t);
    const res = await py(t, { method: 'POST', endpoint: 'batches/b/setMetadata', body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyBatch, res.body).metadata).toEqual({});
  });

  it('update_project: no keyword arguments goes out as no body and answers the project', async () => {
    const t = makeApp();
    await setup(t);
    const res = await py(t, { method: 'POST', endpoint: 'projects/p/setParams' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyProject, res.body).name).toBe('p');
  });
});
