import { describe, expect, it } from 'vitest';
import { makeApp, type TestApp } from '../helpers.js';
import { parsesAs } from './python-models.js';
import {
  PyV2Annotation,
  PyV2Batch,
  PyV2BatchOperationResponse,
  PyV2DatasetTask,
  PyV2Error,
  PyV2GetBatchesResponse,
  PyV2GetDatasetDeliveriesResponse,
  PyV2GetDatasetDeliveryResponse,
  PyV2GetDatasetsResponse,
  PyV2GetDatasetTasksResponse,
  PyV2GetDeliveredTasksResponse,
  PyV2GetDeliveriesResponse,
  PyV2GetDeliveryTasksResponse,
  PyV2GetProjectsResponse,
  PyV2GetSchemaResponse,
  PyV2GetTasksResponse,
  PyV2Project,
  type PyV2Request,
  PyV2Task,
  pyV2Call,
} from './python-v2-models.js';

/**
 * `client.v2` of the official Python client (`scaleapi` 2.18.4): each of the 25 operations of
 * `V2Api`, sent exactly as its generated module sends it (bearer key, repeated expand/opts, datetimes
 * as `%Y-%m-%dT%H:%M:%S.%f%z` or naive, request models' to_dict() with None fields dropped), and each
 * answer parsed with copies of its response models. The v2 rules themselves are contracts
 * (contracts/suite/v2-*.ts); here: the client can send it and read what comes back.
 */

const KEY = 'test_pyv2';
const PROJECT = 'scaleapi-python-sdk';
const v2 = (t: TestApp, req: PyV2Request) => pyV2Call(t, KEY, req);

async function ok<T extends Parameters<typeof parsesAs>[0]>(t: TestApp, req: PyV2Request, model: T) {
  const res = await v2(t, req);
  expect(res.status, `${req.method} ${res.url}: ${JSON.stringify(res.body)}`).toBe(200);
  return parsesAs(model, res.body);
}

/** The fixture the client's tests assume: a project named scaleapi-python-sdk, made through v1. */
async function setup() {
  const t = makeApp();
  const made = await t.call('POST', '/v1/projects', { key: KEY, body: { type: 'chat', name: PROJECT } });
  expect(made.status).toBe(200);
  return t;
}

/** create_batch(CreateBatchRequest(name=..., project_name=...)): staging_batch defaults to False. */
const createBatch = (t: TestApp, name: string, extra: Record<string, unknown> = {}) =>
  ok(
    t,
    { method: 'POST', path: '/v2/batch', body: { name, project_name: PROJECT, staging_batch: false, ...extra } },
    PyV2Batch,
  );

const createChat = (t: TestApp, body: Record<string, unknown>) =>
  ok(t, { method: 'POST', path: '/v2/task/chat', body }, PyV2Task);

const complete = (t: TestApp, taskId: string, body: Record<string, unknown> = {}) =>
  t.call('POST', `/_mock/tasks/${taskId}/complete`, { key: KEY, body });

describe('Python client v2: projects', () => {
  it('get_projects with created_after (aware) and created_before (naive); get_project by name and by id', async () => {
    const t = await setup();
    const all = await ok(t, { method: 'GET', path: '/v2/projects' }, PyV2GetProjectsResponse);
    expect(all.projects.map((p) => p.name)).toEqual([PROJECT]);
    const day = 86_400_000;
    const now = t.clock.now();
    const around = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/projects',
        query: [
          ['created_after', new Date(now - day)],
          ['created_before', { naive: new Date(now + day) }],
        ],
      },
      PyV2GetProjectsResponse,
    );
    expect(around.projects).toHaveLength(1);
    const later = await ok(
      t,
      { method: 'GET', path: '/v2/projects', query: [['created_after', new Date(now + day)]] },
      PyV2GetProjectsResponse,
    );
    expect(later.projects).toEqual([]);
    const byName = await ok(t, { method: 'GET', path: '/v2/project', query: [['project_name', PROJECT]] }, PyV2Project);
    const byId = await ok(t, { method: 'GET', path: '/v2/project', query: [['project_id', byName.id]] }, PyV2Project);
    expect(byId).toEqual(byName);
    expect(byName.id).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('Python client v2: batches', () => {
  it('create_batch, get_batch (expand=[project]), get_batches paged, set_batch_metadata', async () => {
    const t = await setup();
    const first = await createBatch(t, 'b-1', { metadata: { run: 1 }, callback: 'https://example.com/cb' });
    await createBatch(t, 'b-2', { staging_batch: true });
    const got = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/batch',
        query: [
          ['batch_id', first.id],
          ['expand', ['project']],
        ],
      },
      PyV2Batch,
    );
    expect(typeof got.project === 'object' && got.project.name).toBe(PROJECT);
    const page = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/batches',
        query: [
          ['project_name', PROJECT],
          ['limit', 1],
        ],
      },
      PyV2GetBatchesResponse,
    );
    expect(page.batches.map((b) => b.name)).toEqual(['b-2']);
    const rest = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/batches',
        // The next page asks with the first page's filters: a token is bound to them.
        query: [
          ['project_name', PROJECT],
          ['limit', 1],
          ['next_token', page.next_token ?? ''],
        ],
      },
      PyV2GetBatchesResponse,
    );
    expect(rest.batches.map((b) => b.name)).toEqual(['b-1']);
    expect(rest.next_token ?? null).toBeNull();
    const set = await ok(
      t,
      {
        method: 'POST',
        path: '/v2/batch/metadata',
        body: { batch_id: first.id, metadata: { by: 'pytest' }, merge: true },
      },
      PyV2Batch,
    );
    expect(set.metadata).toEqual({ run: 1, by: 'pytest' });
  });

  it('finalize_batch answers a Batch; pause_batch, resume_batch and cancel_batch answer {batch, message}', async () => {
    const t = await setup();
    const staged = await createBatch(t, 'staged', { staging_batch: true });
    const finalized = await ok(
      t,
      { method: 'POST', path: '/v2/batch/finalize', body: { batch_id: staged.id } },
      PyV2Batch,
    );
    expect(finalized.status).toBe('in_progress');
    for (const [verb, status] of [
      ['pause', 'paused'],
      ['resume', 'in_progress'],
      ['cancel', 'cancelled'],
    ] as const) {
      const answer = await ok(
        t,
        { method: 'POST', path: `/v2/batch/${verb}`, body: { batch_name: 'staged' } },
        PyV2BatchOperationResponse,
      );
      expect(answer.batch?.status).toBe(status);
    }
    // The refused transition of the client's own test: an ApiException whose body is the error object.
    const refused = await v2(t, { method: 'POST', path: '/v2/batch/resume', body: { batch_id: staged.id } });
    expect(refused.status).toBe(400);
    parsesAs(PyV2Error, refused.body);
  });
});

describe('Python client v2: tasks', () => {
  it('create_chat_task, set_task_metadata, get_task (expand, opts), get_tasks to the end, get_annotation', async () => {
    const t = await setup();
    const batch = await createBatch(t, 'chats');
    const made = await createChat(t, {
      batch_id: batch.id,
      template_variables: { prompt: 'Hello?' },
      metadata: { a: 1 },
    });
    expect(made.threads).toEqual([]);
    await createChat(t, { project_name: PROJECT, batch_name: 'chats', template_variables: { prompt: 'Again?' } });
    await ok(
      t,
      { method: 'POST', path: '/v2/task/metadata', body: { task_id: made.task_id, metadata: { b: 2 }, merge: true } },
      PyV2Task,
    );
    expect((await complete(t, made.task_id)).status).toBe(200);
    const task = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/task',
        query: [
          ['task_id', made.task_id],
          ['expand', ['project', 'batch']],
          ['opts', ['annotation_details', 'attachment_details', 'model_parameters', 'submissions']],
        ],
      },
      PyV2Task,
    );
    expect(task.metadata).toEqual({ a: 1, b: 2 });
    expect(typeof task.batch === 'object' && task.batch?.name).toBe('chats');
    const annotation = task.threads?.[0]?.turns[0]?.messages[1]?.annotations[0];
    expect(annotation?.title).toBeTruthy();
    const read = await ok(
      t,
      { method: 'GET', path: '/v2/annotation', query: [['annotation_id', annotation?.id]] },
      PyV2Annotation,
    );
    expect(read.id).toBe(annotation?.id);

    // v2_get_tasks: loops while next_token is not None.
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await ok(
        t,
        {
          method: 'GET',
          path: '/v2/tasks',
          query: [
            ['project_name', PROJECT],
            ['completed_after', undefined],
            ['limit', 1],
            ['next_token', token],
          ],
        },
        PyV2GetTasksResponse,
      );
      seen.push(...page.tasks.map((x) => x.task_id));
      token = page.next_token ?? undefined;
    } while (token !== undefined);
    expect(seen).toHaveLength(2);
    const done = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/tasks',
        query: [
          ['batch_id', batch.id],
          ['status', 'completed'],
          ['completed_after', new Date(t.clock.now() - 60_000)],
          ['completed_before', { naive: new Date(t.clock.now() + 60_000) }],
          ['limit', 100],
          ['expand', ['project']],
          ['opts', ['submissions']],
        ],
      },
      PyV2GetTasksResponse,
    );
    expect(done.tasks.map((x) => x.task_id)).toEqual([made.task_id]);
  });

  it('get_tasks with neither project nor batch is an ApiException whose body names the selectors', async () => {
    const t = await setup();
    const res = await v2(t, { method: 'GET', path: '/v2/tasks', query: [['limit', 10]] });
    expect(res.status).toBe(400);
    expect(parsesAs(PyV2Error, res.body).error).toMatch(/project_id.*batch_name/);
  });
});

describe('Python client v2: deliveries, schemas, datasets', () => {
  it('get_deliveries, get_delivery (by id and by name), get_delivery_tasks, get_schema', async () => {
    const t = await setup();
    const task = await createChat(t, { project_name: PROJECT, template_variables: { prompt: 'Hi' } });
    await complete(t, task.task_id);
    const schema = await t.call('POST', '/_mock/v2/schemas', { key: KEY, body: { json: { type: 'object' } } });
    const made = await t.call('POST', '/_mock/v2/deliveries', {
      key: KEY,
      body: { name: 'week-1', project: PROJECT, response_schema_id: schema.body.schema.id },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const list = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/deliveries',
        query: [
          ['project_name', PROJECT],
          ['delivered_after', new Date(t.clock.now() - 1000)],
          ['expand', ['project']],
        ],
      },
      PyV2GetDeliveriesResponse,
    );
    expect(list.deliveries.map((d) => d.task_count)).toEqual([1]);
    const one = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/delivery',
        query: [
          ['delivery_id', made.body.id],
          ['limit', 10],
          ['expand', ['delivery', 'project', 'batch']],
          ['opts', ['annotation_details']],
        ],
      },
      PyV2GetDeliveredTasksResponse,
    );
    expect(one.tasks.map((x) => x.task_id)).toEqual([task.task_id]);
    await ok(
      t,
      {
        method: 'GET',
        path: '/v2/delivery',
        query: [
          ['delivery_name', 'week-1'],
          ['project_name', PROJECT],
        ],
      },
      PyV2GetDeliveredTasksResponse,
    );
    const docs = await ok(
      t,
      { method: 'GET', path: '/v2/delivery/tasks', query: [['delivery_id', made.body.id]] },
      PyV2GetDeliveryTasksResponse,
    );
    expect(docs.total).toBe(1);
    const got = await ok(
      t,
      { method: 'GET', path: '/v2/schema', query: [['schema_id', schema.body.schema.id]] },
      PyV2GetSchemaResponse,
    );
    expect(JSON.parse(got.schema.json ?? '')).toEqual({ type: 'object' });
  });

  it('get_datasets, _deliveries, _delivery, _tasks, _task and _task_response_url (a 302 to the bytes)', async () => {
    const t = await setup();
    const form = new FormData();
    form.set('file', new Blob(['attachment bytes'], { type: 'text/plain' }), 'a.txt');
    const upload = await t.app.request('/v1/files/upload', {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}` },
      body: form,
    });
    const file = (await upload.json()) as { id: string };
    const made = await t.call('POST', '/_mock/v2/datasets', {
      key: KEY,
      body: {
        name: 'set-1',
        deliveries: [
          { name: 'd-1', tasks: [{ task_id: 'dt-1', response: {}, attachments: [{ id: 'a1', file_id: file.id }] }] },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const datasetId = made.body.id as string;
    const deliveryId = made.body.deliveries[0].id as string;
    await ok(t, { method: 'GET', path: '/v2/datasets' }, PyV2GetDatasetsResponse);
    await ok(
      t,
      {
        method: 'GET',
        path: '/v2/datasets/deliveries',
        query: [
          ['dataset_id', datasetId],
          ['delivered_before', { naive: new Date(t.clock.now() + 1000) }],
          ['expand', ['dataset']],
        ],
      },
      PyV2GetDatasetDeliveriesResponse,
    );
    await ok(
      t,
      {
        method: 'GET',
        path: '/v2/datasets/delivery',
        query: [
          ['delivery_id', deliveryId],
          ['limit', 10],
          ['expand', ['dataset', 'delivery']],
        ],
      },
      PyV2GetDatasetDeliveryResponse,
    );
    const tasks = await ok(
      t,
      {
        method: 'GET',
        path: '/v2/datasets/tasks',
        query: [
          ['dataset_id', datasetId],
          ['delivery_id', deliveryId],
          ['limit', 10],
          ['expand', ['delivery']],
        ],
      },
      PyV2GetDatasetTasksResponse,
    );
    expect(tasks.tasks.map((x) => x.task_id)).toEqual(['dt-1']);
    await ok(
      t,
      {
        method: 'GET',
        path: '/v2/datasets/task',
        query: [
          ['task_id', 'dt-1'],
          ['expand', ['dataset']],
        ],
      },
      PyV2DatasetTask,
    );
    // urllib3 follows the 302 with the same headers (same host): the bytes, read with the same key.
    const redirect = await v2(t, { method: 'GET', path: '/v2/datasets/task/dt-1/response_url/a1' });
    expect(redirect.status).toBe(302);
    const location = redirect.headers.get('location') ?? '';
    const bytes = await t.app.request(location, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await bytes.text()).toBe('attachment bytes');
  });
});
