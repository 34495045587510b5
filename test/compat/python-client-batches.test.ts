import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import {
  PyBatch,
  PyBatchList,
  PyBatchStatus,
  type PyParams,
  type PyRequest,
  parsesAs,
  pyCall,
  pyQuote,
} from './python-models.js';

/**
 * ScaleClient batch methods (`scaleapi` 2.18.4): create_batch's full default payload, names in the
 * path through Api.quote_string, batches()/get_batches() paging by offset. Answers must parse in
 * batches.py Batch and in the Batchlist the client builds from totalDocs/limit/offset/has_more.
 */

const KEY = 'test_pyclient';
const PROJECT = 'scaleapi-python-sdk';
/** A name that needs every kind of quoting the client does: space, slash, pipe, parentheses. */
const ODD = 'night run/2 | (a)';
const py = (t: TestApp, req: PyRequest) => pyCall(t, KEY, req);

const createProject = (t: TestApp) =>
  py(t, {
    method: 'POST',
    endpoint: 'projects',
    body: { type: 'imageannotation', name: PROJECT, params: null, rapid: false, studio: false, datasetId: null },
  });
/** create_batch(project, batch_name, callback="", calibration_batch=False, self_label_batch=False, metadata=None). */
const createBatch = async (
  t: TestApp,
  name: string,
  extra: { callback?: string; metadata?: Record<string, unknown> } = {},
) => {
  const res = await py(t, {
    method: 'POST',
    endpoint: 'batches',
    body: {
      project: PROJECT,
      name,
      calibration_batch: false,
      self_label_batch: false,
      callback: extra.callback ?? '',
      metadata: extra.metadata ?? {},
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return parsesAs(PyBatch, res.body);
};
const addTask = (t: TestApp, batch: string) =>
  py(t, {
    method: 'POST',
    endpoint: 'task/imageannotation',
    body: {
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      geometries: { box: { objects_to_annotate: ['cow'] } },
      batch,
    },
  });
const listBatches = async (t: TestApp, params: PyParams) => {
  const res = await py(t, { method: 'GET', endpoint: 'batches', params });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return parsesAs(PyBatchList, res.body);
};

describe('Python client: batch methods', () => {
  it('create_batch: the default payload (callback "", flags false, metadata {}) is in_progress', async () => {
    const t = makeApp();
    await createProject(t);
    const batch = await createBatch(t, 'b1');
    expect(batch).toMatchObject({ name: 'b1', status: 'in_progress', project: PROJECT, metadata: {} });
  });

  it('create_batch: metadata and a callback URL are kept (test_get_batch reads metadata.some_key)', async () => {
    const t = makeApp();
    await createProject(t);
    await createBatch(t, 'b1', { callback: 'http://www.example.com/callback', metadata: { some_key: 'some_value' } });
    const res = await py(t, { method: 'GET', endpoint: 'batches/b1' });
    expect(parsesAs(PyBatch, res.body).metadata).toEqual({ some_key: 'some_value' });
  });

  it('get_batch, batch_status, finalize_batch, set_batch_metadata: a quote_string name reaches the batch', async () => {
    const t = makeApp();
    await createProject(t);
    await createBatch(t, ODD);
    const path = `batches/${pyQuote(ODD)}`;
    expect(path).toBe('batches/night%20run%2F2%20%7C%20%28a%29');
    expect(parsesAs(PyBatch, (await py(t, { method: 'GET', endpoint: path })).body).name).toBe(ODD);
    expect(parsesAs(PyBatchStatus, (await py(t, { method: 'GET', endpoint: `${path}/status` })).body).status).toBe(
      'in_progress',
    );
    const finalized = await py(t, { method: 'POST', endpoint: `${path}/finalize` });
    expect(finalized.status).toBe(200);
    expect(parsesAs(PyBatch, finalized.body).name).toBe(ODD);
    const meta = await py(t, { method: 'POST', endpoint: `${path}/setMetadata`, body: { new_key: 'new_value' } });
    expect(parsesAs(PyBatch, meta.body).metadata.new_key).toBe('new_value');
  });

  it('batch_status: counts the batch tasks by status; Batch.get_status reads status and the four counts', async () => {
    const t = makeApp();
    await createProject(t);
    await createBatch(t, 'b1');
    const a = await addTask(t, 'b1');
    await addTask(t, 'b1');
    await t.call('POST', `/_mock/tasks/${a.body.task_id}/complete`, { key: KEY });
    const res = await py(t, { method: 'GET', endpoint: 'batches/b1/status' });
    expect(parsesAs(PyBatchStatus, res.body)).toMatchObject({ status: 'in_progress', pending: 1, completed: 1 });
  });

  it('create_task: a batch with all tasks done still takes new ones (the client tests add 3, one by one)', async () => {
    const t = makeApp({ config: { completion: { mode: 'immediate', delay_ms: 0 } } });
    await createProject(t);
    await createBatch(t, 'b1');
    for (let i = 0; i < 3; i++) {
      const res = await addTask(t, 'b1');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      // immediate mode completes at creation, so the batch has no pending task before the next one
      expect((await py(t, { method: 'GET', endpoint: `task/${res.body.task_id}` })).body.status).toBe('completed');
    }
  });

  it('batches: limit=3 answers the newest three with totalDocs, limit, offset and has_more', async () => {
    const t = makeApp();
    await createProject(t);
    for (const name of ['b1', 'b2', 'b3', 'b4']) {
      t.clock.advance(1000);
      await createBatch(t, name);
    }
    const page = await listBatches(t, { limit: 3 });
    expect(page.docs.map((b) => b.name)).toEqual(['b4', 'b3', 'b2']);
    expect(page).toMatchObject({ totalDocs: 4, limit: 3, offset: 0, has_more: true });
  });

  it('get_batches: pages by offset += limit, exclude_archived=False, to has_more false; count=totalDocs', async () => {
    const t = makeApp();
    await createProject(t);
    for (let i = 0; i < 5; i++) {
      t.clock.advance(1000);
      await createBatch(t, `b${i}`);
    }
    const total = (await listBatches(t, { project: PROJECT, limit: 1 })).totalDocs;
    const names: string[] = [];
    let offset = 0;
    for (let guard = 0; guard < 20; guard++) {
      const page = await listBatches(t, {
        start_time: null,
        end_time: null,
        project: PROJECT,
        offset,
        exclude_archived: false,
      });
      names.push(...page.docs.map((b) => b.name));
      offset += page.limit;
      if (!page.has_more) break;
    }
    expect(names).toHaveLength(total);
    expect(new Set(names).size).toBe(5);
  });

  it('get_batches: batch_status=BatchStatus.InProgress sends status=in_progress and filters', async () => {
    const t = makeApp();
    await createProject(t);
    await createBatch(t, 'b1');
    const page = await listBatches(t, { project: PROJECT, offset: 0, exclude_archived: true, status: 'in_progress' });
    expect(page.docs.map((b) => b.name)).toEqual(['b1']);
    expect(
      (await listBatches(t, { project: PROJECT, offset: 0, exclude_archived: false, status: 'completed' })).docs,
    ).toEqual([]);
  });
});
