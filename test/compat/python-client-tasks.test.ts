import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import { type PyRequest, PyTask, PyTaskFull, parsesAs, pyCall } from './python-models.js';

/**
 * ScaleClient task methods (`scaleapi` 2.18.4), request for request as the Python client sends them,
 * with the task bodies of the client's own tests/test_client.py. Answers must parse in tasks.py Task.
 */

const KEY = 'test_pyclient';
const py = (t: TestApp, req: PyRequest, key = KEY) => pyCall(t, key, req);

/** test_client.make_a_task(): the imageannotation the client's tests create everywhere. */
const cows = (extra: Record<string, unknown> = {}) => ({
  callback_url: 'http://www.example.com/callback',
  instruction: 'Draw a box around each baby cow and big cow.',
  attachment_type: 'image',
  attachment: 'http://i.imgur.com/v4cBreD.jpg',
  geometries: { box: { objects_to_annotate: ['Baby Cow', 'Big Cow'], min_height: 10, min_width: 10 } },
  ...extra,
});
const createTask = async (t: TestApp, extra: Record<string, unknown> = {}) => {
  const res = await py(t, { method: 'POST', endpoint: 'task/imageannotation', body: cows(extra) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return parsesAs(PyTaskFull, res.body);
};
const complete = (t: TestApp, id: string) => t.call('POST', `/_mock/tasks/${id}/complete`, { key: KEY });

/** The "ok" bodies of test_client.py, one per task type it covers. */
const OK_BODIES: [string, Record<string, unknown>][] = [
  [
    'categorization',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Is this company public or private?',
      attachment_type: 'website',
      force: true,
      attachment: 'http://www.google.com/',
      categories: ['public', 'private'],
    },
  ],
  [
    'transcription',
    {
      callback_url: 'http://www.example.com/callback',
      instruction:
        'Transcribe the given fields. Then for each news item on the page, transcribe the information for the row.',
      attachment_type: 'website',
      attachment: 'http://www.google.com/',
      fields: { title: 'Title of Webpage', top_result: 'Title of the top result' },
      repeatable_fields: { username: 'Username of submitter', comment_count: 'Number of comments' },
    },
  ],
  ['imageannotation', cows()],
  [
    'documenttranscription',
    {
      instruction: 'Please transcribe this receipt.',
      attachment: 'http://document.scale.com/receipt-20200519.jpg',
      features: [{ type: 'block', label: 'barcode' }],
    },
  ],
  [
    'annotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a box around each **baby cow** and **big cow**',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      min_width: '30',
      min_height: '30',
      objects_to_annotate: ['baby cow', 'big cow'],
      with_labels: true,
    },
  ],
  [
    'polygonannotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['big cow'],
      with_labels: true,
    },
  ],
  [
    'lineannotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      objects_to_annotate: ['big cow'],
      with_labels: true,
    },
  ],
  [
    'datacollection',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Find the URL for the hiring page for the company with attached website.',
      attachment_type: 'website',
      attachment: 'http://www.google.com/',
      fields: { hiring_page: 'Hiring Page URL' },
    },
  ],
  [
    'namedentityrecognition',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Do the objects in these images have the same pattern?',
      text: 'Example text to label with NER tool',
      labels: [{ name: 'Label_A', description: 'the first label' }],
    },
  ],
];

/** The "fail" bodies: each must be a 400 (ScaleInvalidRequest) carrying an `error` message. */
const FAIL_BODIES: [string, Record<string, unknown>][] = [
  ['categorization', { callback_url: 'http://www.example.com/callback', categories: ['public', 'private'] }],
  ['transcription', { callback_url: 'http://www.example.com/callback', attachment_type: 'website' }],
  [
    'imageannotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a box around each **baby cow** and **big cow**',
      attachment_type: 'image',
    },
  ],
  [
    'documenttranscription',
    { callback_url: 'http://www.example.com/callback', instruction: 'Please transcribe this receipt.' },
  ],
  [
    'annotation',
    { callback_url: 'http://www.example.com/callback', instruction: 'Draw a box', attachment_type: 'image' },
  ],
  [
    'polygonannotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
    },
  ],
  [
    'lineannotation',
    {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Draw a tight shape around the big cow',
      attachment_type: 'image',
    },
  ],
  ['datacollection', { callback_url: 'http://www.example.com/callback', attachment_type: 'website' }],
];

describe('Python client: task methods', () => {
  it.each(OK_BODIES)('create_task: the client test body for %s is accepted and parses as Task', async (type, body) => {
    const t = makeApp();
    const res = await py(t, { method: 'POST', endpoint: `task/${type}`, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyTaskFull, res.body)).toMatchObject({ type, status: 'pending', metadata: {} });
  });

  it.each(FAIL_BODIES)(
    'create_task: the client test body for %s without its required fields is a 400 with an error message',
    async (type, body) => {
      const res = await py(makeApp(), { method: 'POST', endpoint: `task/${type}`, body });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    },
  );

  it('create_task: a new task has metadata {} and no tags key (test_set_task_tags asserts no tags)', async () => {
    const task = await createTask(makeApp());
    expect(task.metadata).toEqual({});
    expect(task).not.toHaveProperty('tags');
    expect(task.params).toMatchObject({
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/v4cBreD.jpg',
      geometries: cows().geometries,
    });
  });

  it('create_task: a used unique_id is a 409 (ScaleDuplicateResource) with an error message', async () => {
    const t = makeApp();
    await createTask(t, { unique_id: 'u-1' });
    const res = await py(t, { method: 'POST', endpoint: 'task/imageannotation', body: cows({ unique_id: 'u-1' }) });
    expect(res.status).toBe(409);
    expect(res.body.error).toEqual(expect.any(String));
  });

  it('get_task: answers the task as created; an unknown id is a 404 (ScaleResourceNotFound)', async () => {
    const t = makeApp();
    const task = await createTask(t);
    const res = await py(t, { method: 'GET', endpoint: `task/${task.task_id}` });
    expect(parsesAs(PyTaskFull, res.body)).toMatchObject({
      task_id: task.task_id,
      created_at: task.created_at,
      callback_url: task.callback_url,
    });
    const missing = await py(t, { method: 'GET', endpoint: 'task/fake_id_qwertyuiop' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual(expect.any(String));
  });

  it('cancel_task: a body-less json POST cancels a pending task; a completed one is a 400, never a 409', async () => {
    const t = makeApp();
    const task = await createTask(t);
    const res = await py(t, { method: 'POST', endpoint: `task/${task.task_id}/cancel` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(parsesAs(PyTask, res.body).status).toBe('canceled');
    const done = await createTask(t);
    await complete(t, done.task_id);
    // a 409 here would make the client evaluate body.get(...) on None: AttributeError, not ScaleException
    expect((await py(t, { method: 'POST', endpoint: `task/${done.task_id}/cancel` })).status).toBe(400);
  });

  it('cancel_task: clear_unique_id=True sends ?clear_unique_id=true and frees the unique_id', async () => {
    const t = makeApp();
    const task = await createTask(t, { unique_id: 'u-cancel' });
    const res = await py(t, { method: 'POST', endpoint: `task/${task.task_id}/cancel?clear_unique_id=true` });
    expect(res.status).toBe(200);
    expect(parsesAs(PyTask, res.body)).not.toHaveProperty('unique_id');
    expect(
      (await py(t, { method: 'POST', endpoint: 'task/imageannotation', body: cows({ unique_id: 'u-cancel' }) })).status,
    ).toBe(200);
  });

  it('audit_task: {"accepted": true, "comments": null} on a completed task answers 200', async () => {
    const t = makeApp();
    const task = await createTask(t);
    await complete(t, task.task_id);
    const res = await py(t, {
      method: 'POST',
      endpoint: `task/${task.task_id}/audit`,
      body: { accepted: true, comments: null },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await py(t, { method: 'GET', endpoint: `task/${task.task_id}` });
    expect(after.body.customer_review_status).toBe('accepted');
  });

  it('update_task_unique_id, clear_task_unique_id: POST {"unique_id"} sets, a body-less DELETE removes', async () => {
    const t = makeApp();
    const task = await createTask(t, { unique_id: 'old' });
    const set = await py(t, { method: 'POST', endpoint: `task/${task.task_id}/unique_id`, body: { unique_id: 'new' } });
    expect(parsesAs(PyTask, set.body).unique_id).toBe('new');
    const cleared = await py(t, { method: 'DELETE', endpoint: `task/${task.task_id}/unique_id` });
    expect(cleared.status).toBe(200);
    expect(parsesAs(PyTask, cleared.body)).not.toHaveProperty('unique_id');
  });

  it('set_task_metadata: the dict is the body and replaces the metadata', async () => {
    const t = makeApp();
    const task = await createTask(t);
    const res = await py(t, {
      method: 'POST',
      endpoint: `task/${task.task_id}/setMetadata`,
      body: { myKey: 'myValue' },
    });
    expect(parsesAs(PyTaskFull, res.body).metadata).toEqual({ myKey: 'myValue' });
  });

  it('set_task_tags, add_task_tags, delete_task_tags: POST, PUT and DELETE with a JSON array body', async () => {
    const t = makeApp();
    const task = await createTask(t);
    const set = await py(t, { method: 'POST', endpoint: `task/${task.task_id}/tags`, body: ['a', 'b'] });
    expect(parsesAs(PyTask, set.body).tags).toEqual(['a', 'b']);
    const added = await py(t, { method: 'PUT', endpoint: `task/${task.task_id}/tags`, body: ['b', 'c'] });
    expect(parsesAs(PyTask, added.body).tags).toEqual(['a', 'b', 'c']);
    const deleted = await py(t, { method: 'DELETE', endpoint: `task/${task.task_id}/tags`, body: ['a', 'b'] });
    expect(parsesAs(PyTask, deleted.body).tags).toEqual(['c']);
  });
});
