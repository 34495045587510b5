import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import { type PyParams, PyTaskList, parsesAs, pyCall, pyQuery } from './python-models.js';

/**
 * ScaleClient.tasks(), get_tasks(), get_tasks_count() (`scaleapi` 2.18.4): GET /v1/tasks with the
 * query `requests` builds from the client's arguments (None dropped, lists as repeated keys,
 * booleans as True/False). The client never sends `offset` or an unknown key to this route.
 */

const KEY = 'test_pyclient';
const PROJECT = 'scaleapi-python-sdk';

const list = async (t: TestApp, params: PyParams) => {
  const res = await pyCall(t, KEY, { method: 'GET', endpoint: 'tasks', params });
  expect(res.status, `${pyQuery(params)} -> ${JSON.stringify(res.body)}`).toBe(200);
  return parsesAs(PyTaskList, res.body);
};

/** ScaleClient._process_tasks_endpoint_args(): the keys get_tasks / get_tasks_count always send. */
const processArgs = (a: {
  project?: string;
  batch?: string;
  status?: string;
  type?: string;
  review?: string[];
  unique_id?: string | string[];
  tags?: string | string[];
  created_after?: string;
  limited?: boolean;
}): PyParams => ({
  start_time: a.created_after ?? null,
  end_time: null,
  project: a.project ?? null,
  batch: a.batch ?? null,
  completed_before: null,
  completed_after: null,
  tags: a.tags ?? null,
  updated_before: null,
  updated_after: null,
  unique_id: a.unique_id ?? null,
  include_attachment_url: true,
  ...(a.status && { status: a.status }),
  ...(a.limited && { limited_response: true }),
  ...(a.type && { type: a.type }),
  ...(a.review && { customer_review_status: a.review.join(',') }),
});

async function setup(t: TestApp) {
  await pyCall(t, KEY, {
    method: 'POST',
    endpoint: 'projects',
    body: { type: 'imageannotation', name: PROJECT, params: null, rapid: false, studio: false, datasetId: null },
  });
  const batch = await pyCall(t, KEY, {
    method: 'POST',
    endpoint: 'batches',
    body: {
      project: PROJECT,
      name: 'b 1/x',
      calibration_batch: false,
      self_label_batch: false,
      callback: '',
      metadata: {},
    },
  });
  expect(batch.status).toBe(200);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    t.clock.advance(1000);
    const body = {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a box around each baby cow and big cow.',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      geometries: { box: { objects_to_annotate: ['Baby Cow', 'Big Cow'], min_height: 10, min_width: 10 } },
      unique_id: `u${i}`,
      ...(i < 3 && { batch: 'b 1/x' }),
      ...(i >= 3 && { project: PROJECT }),
    };
    const res = await pyCall(t, KEY, { method: 'POST', endpoint: 'task/imageannotation', body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ids.push(res.body.task_id);
  }
  return ids;
}

describe('Python client: listing tasks', () => {
  it('tasks: limit=3 answers docs, total, limit, offset, has_more and next_token, newest first', async () => {
    const t = makeApp();
    const ids = await setup(t);
    const page = await list(t, { limit: 3 });
    expect(page.docs.map((d) => d.task_id)).toEqual(ids.slice(2).reverse());
    expect(page).toMatchObject({ total: 5, limit: 3, offset: 0, has_more: true, next_token: expect.any(String) });
  });

  it('get_tasks: pages with next_token (absent first), include_attachment_url=True, to has_more false', async () => {
    const t = makeApp();
    const ids = await setup(t);
    const seen: string[] = [];
    let next: string | null | undefined = null;
    for (let guard = 0; guard < 10; guard++) {
      const page = await list(t, { ...processArgs({ project: PROJECT }), limit: 2, next_token: next });
      seen.push(...page.docs.map((d) => d.task_id));
      next = page.next_token;
      if (!page.has_more) break;
    }
    expect(seen.sort()).toEqual([...ids].sort());
  });

  it('get_tasks: batch_name only (project None) lists the batch; its name has a space and a slash', async () => {
    const t = makeApp();
    const ids = await setup(t);
    const page = await list(t, { ...processArgs({ batch: 'b 1/x' }), limit: 1, next_token: null });
    expect(page.total).toBe(3);
    expect(ids.slice(0, 3)).toContain(page.docs[0]?.task_id);
  });

  it('get_tasks_count: limit=1, include_attachment_url=True gives the same total as tasks(project=...)', async () => {
    const t = makeApp();
    await setup(t);
    const plain = await list(t, { project: PROJECT });
    const counted = await list(t, { ...processArgs({ project: PROJECT }), limit: 1 });
    expect(counted.total).toBe(plain.total);
    expect(counted.docs).toHaveLength(1);
  });

  it('get_tasks: status, task_type, review statuses (comma-joined), limited_response=True filter at once', async () => {
    const t = makeApp();
    const ids = await setup(t);
    await t.call('POST', `/_mock/tasks/${ids[4]}/complete`, { key: KEY });
    const page = await list(
      t,
      processArgs({
        project: PROJECT,
        status: 'completed',
        type: 'imageannotation',
        review: ['pending', 'accepted'],
        limited: true,
      }),
    );
    expect(page.docs.map((d) => d.task_id)).toEqual([ids[4]]);
  });

  it('get_tasks: unique_id and tags as lists are sent as repeated keys and match any value', async () => {
    const t = makeApp();
    const ids = await setup(t);
    await pyCall(t, KEY, { method: 'POST', endpoint: `task/${ids[1]}/tags`, body: ['red'] });
    const byUid = await list(t, processArgs({ project: PROJECT, unique_id: ['u0', 'u3'] }));
    expect(byUid.docs.map((d) => d.task_id).sort()).toEqual([ids[0], ids[3]].sort());
    const byTag = await list(t, processArgs({ project: PROJECT, tags: ['red', 'blue'] }));
    expect(byTag.docs.map((d) => d.task_id)).toEqual([ids[1]]);
  });

  it('tasks: start_time/end_time as utcnow().isoformat() (no offset, microseconds) select by created_at', async () => {
    const t = makeApp();
    const ids = await setup(t);
    const created = (await pyCall(t, KEY, { method: 'GET', endpoint: `task/${ids[2]}` })).body.created_at as string;
    const iso = (ms: number) =>
      new Date(Date.parse(created) + ms)
        .toISOString()
        .replace('Z', '')
        .replace(/(\.\d{3})$/, '$1000');
    const around = await list(t, { start_time: iso(-1), end_time: iso(1) });
    expect(around.docs.map((d) => d.task_id)).toEqual([ids[2]]);
    const later = await list(t, { start_time: iso(100_000), end_time: iso(200_000) });
    expect(later.docs).toEqual([]);
  });

  it('tasks: the docs of a limited_response=True page still carry task_id (Task reads json["task_id"])', async () => {
    const t = makeApp();
    await setup(t);
    const page = await list(t, { project: PROJECT, limited_response: true, include_attachment_url: false });
    expect(page.docs).toHaveLength(5);
  });
});
