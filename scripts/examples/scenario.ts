import { fixture } from '../../src/fixtures.js';
import type { OperationExamples } from '../../src/openapi/examples.js';
import { Recorder } from './recorder.js';

/**
 * The scenario that records the documents' examples: real requests to a fresh mock and its real
 * answers, one exchange per operation (fixtures/examples/operations.json; npm run openapi:write).
 */

const imageTask = (extra: Record<string, unknown> = {}) => ({
  ...fixture<Record<string, unknown>>('tasks/imageannotation.create.json'),
  ...extra,
});

/** Tasks: create, read, list, change. */
async function taskCalls(r: Recorder): Promise<void> {
  const task = await r.call('post', '/v1/task/imageannotation', { body: imageTask({ unique_id: 'kitchen-0001' }) });
  const params = { taskId: String(task.task_id) };
  await r.call('get', '/v1/task/{taskId}', { params });
  await r.call('get', '/v1/tasks', { query: 'status=pending&limit=1' });
  await r.call('post', '/v1/task/{taskId}/setMetadata', { params, body: { customer_ref: 'order-17' } });
  await r.call('post', '/v1/task/{taskId}/unique_id', { params, body: { unique_id: 'kitchen-0001-b' } });
  await r.call('delete', '/v1/task/{taskId}/unique_id', { params });
  await r.call('post', '/v1/task/{taskId}/tags', { params, body: ['kitchen', 'urgent'] });
  await r.call('put', '/v1/task/{taskId}/tags', { params, body: ['reviewed'] });
  await r.call('delete', '/v1/task/{taskId}/tags', { params, body: ['urgent'] });
  await r.call('post', '/v1/task/{taskId}/dependents/options', {
    params,
    body: { defs: [{ type: 'categorization', categories: ['clean', 'messy'] }], require_audit: true },
  });
  r.clock.advance(60_000);
  await r.call('post', '/_mock/tasks/{taskId}/complete', { params });
  await r.call('post', '/v1/task/{taskId}/dependents/force_creation', { params });
  await r.call('post', '/v1/task/{taskId}/audit', { params, body: { accepted: true, comments: 'Boxes are tight' } });
  const other = await r.call('post', '/v1/task/imageannotation', { body: imageTask() });
  await r.call('post', '/v1/task/{taskId}/cancel', {
    params: { taskId: String(other.task_id) },
    query: 'clear_unique_id=true',
  });
}

/** Projects and batches. */
async function projectCalls(r: Recorder): Promise<void> {
  const name = 'kitchen-photos';
  await r.call('post', '/v1/projects', {
    body: { type: 'imageannotation', name, params: { instruction: 'Draw a box around each appliance.' } },
  });
  await r.call('get', '/v1/projects');
  await r.call('get', '/v1/projects/{name}', { params: { name } });
  await r.call('post', '/v1/projects/{name}', { params: { name } });
  await r.call('post', '/v1/projects/{name}/setParams', {
    params: { name },
    body: { patch: true, instruction: 'Draw a tight box around each appliance.' },
  });
  await r.call('post', '/v1/projects/{name}/setOntology', {
    params: { name },
    body: { name: 'appliances-v1', ontology: ['fridge', { choice: 'oven', subchoices: ['gas', 'electric'] }] },
  });
  await r.call('post', '/v1/batches', { body: { project: name, name: 'kitchen-batch-1' } });
  await r.call('get', '/v1/batches', { query: `project=${name}` });
  const batch = { batchName: 'kitchen-batch-1' };
  await r.call('get', '/v1/batches/{batchName}', { params: batch });
  await r.call('post', '/v1/batches/{batchName}/setMetadata', { params: batch, body: { customer_ref: 'order-17' } });
  await r.call('post', '/v1/batches/{batchName}/prioritize', { params: batch, body: { priority: 20 } });
  await r.call('post', '/v1/batches/{batchName}/finalize', { params: batch });
  await r.call('get', '/v1/batches/{batchName}/status', { params: batch });
  await r.call('post', '/v1/projects', {
    body: { type: 'textcollection', name: 'survey', params: fixture('tasks/textcollection.create.json') },
  });
  await r.call('get', '/v1/projects/{name}/taskTemplates', { params: { name: 'survey' } });
}

/** Files: import, upload, list. */
async function fileCalls(r: Recorder): Promise<void> {
  const project = 'kitchen-photos';
  await r.call('post', '/v1/files/import', {
    body: { file_url: 'https://example.com/images/kitchen-2.jpg', project_name: project, reference_id: 'kitchen-2' },
  });
  const form = new FormData();
  form.set('file', new Blob(['fridge,oven\n'], { type: 'text/csv' }), 'appliances.csv');
  form.set('project_name', project);
  form.set('metadata', '{"source":"upload"}');
  await r.call('post', '/v1/files/upload', { form });
  await r.call('get', '/v1/files', { query: `projects=${project}&limit=2` });
}

/** Teams, Studio and the control routes that play the people behind them. */
async function studioCalls(r: Recorder): Promise<void> {
  const project = 'street-signs';
  await r.call('post', '/v1/projects', { body: { type: 'imageannotation', name: project, studio: true } });
  await r.call('post', '/v1/teams/invite', { body: { emails: ['ann@example.com'], team_role: 'labeler' } });
  await r.call('post', '/v1/teams/invite', { body: { emails: ['bob@example.com'], team_role: 'member' } });
  await r.call('post', '/_mock/teams/accept', { body: { emails: ['ann@example.com', 'bob@example.com'] } });
  await r.call('post', '/v1/teams/set_role', { body: { emails: ['bob@example.com'], team_role: 'disabled' } });
  await r.call('get', '/v1/teams');
  await r.call('post', '/v1/studio/assignments/add', { body: { emails: ['ann@example.com'], projects: [project] } });
  await r.call('get', '/v1/studio/assignments');
  const params = { project, group: 'night-shift' };
  await r.call('post', '/v1/studio/projects/{project}/groups', {
    params,
    body: { name: 'night-shift', emails: ['ann@example.com'] },
  });
  await r.call('get', '/v1/studio/projects/{project}/groups', { params });
  for (const method of ['put', 'post']) {
    await r.call(method, '/v1/studio/projects/{project}/groups/{group}', {
      params,
      body: { remove_emails: ['ann@example.com'] },
    });
  }
  await r.call('post', '/v1/batches', { body: { project, name: 'signs-1' } });
  await r.call('post', '/v1/batches', { body: { project, name: 'signs-2' } });
  await r.call('get', '/v1/studio/batches');
  await r.call('post', '/v1/studio/batches/set_priorities', {
    body: { batches: [{ name: 'signs-2' }, { name: 'signs-1' }] },
  });
  await r.call('post', '/v1/studio/batches/reset_priorities');
  for (const method of ['put', 'post']) {
    await r.call(method, '/v1/studio/batches/{batch}', {
      params: { batch: 'signs-1' },
      body: { groups: ['night-shift'] },
    });
  }
  const send = { projectName: project };
  await r.call('post', '/v1/studio/projects/{projectName}/send_tasks_to_completed', {
    params: send,
    body: { batches: ['signs-1'] },
  });
  await r.call('get', '/v1/studio/projects/{projectName}/send_tasks_to_completed', {
    params: send,
    query: 'batches=signs-2',
  });
  await r.call('post', '/v1/projects/{name}/updatePipelineConfig', {
    params: { name: project },
    body: { pipeline: 'standard_task' },
  });
  await r.call('post', '/v1/projects/updatePipelineConfig', {
    body: { name: project, pipeline: 'consensus_task', consensus_attempts: 2 },
  });
  await r.call('post', '/v1/studio/assignments/remove', { body: { emails: ['ann@example.com'], projects: [project] } });
}

/** Quality tasks and training attempts. */
async function qualityCalls(r: Recorder): Promise<void> {
  const geometries = { box: { objects_to_annotate: ['car', 'truck'] } };
  await r.call('post', '/v1/projects', {
    body: {
      type: 'imageannotation',
      name: 'rapid-cars',
      rapid: true,
      params: { geometries, instruction: 'Box the cars.' },
    },
  });
  const box = { type: 'box', uuid: 'b1', label: 'car', left: 10, top: 20, width: 30, height: 40, attributes: {} };
  const base = { project: 'rapid-cars', attachment: 'https://example.com/images/street-1.jpg' };
  const params = { type: 'imageannotation' };
  await r.call('post', '/v1/evaluation_tasks/{type}', {
    params,
    body: { ...base, expected_response: { annotations: [box] }, initial_response: { annotations: [] } },
  });
  const training = await r.call('post', '/v1/training_tasks/{type}', {
    params,
    body: { ...base, expected_response: { annotations: [box] } },
  });
  await r.call('post', '/_mock/quality/attempts', {
    body: {
      attempts: [{ quality_task_id: String(training.id), labeler_email: 'ann@example.com', score: 0.9, passed: true }],
    },
  });
  await r.call('get', '/v1/quality/labelers', { query: 'labeler_emails=ann@example.com' });
  // The journal's newest entry: the list just above.
  await r.call('get', '/_mock/requests', { query: 'limit=1' });
  await r.call('delete', '/_mock/requests');
}

/** The control plane, on a tenant of its own: its state export stays small. */
async function controlCalls(r: Recorder): Promise<void> {
  // The tenant's callback key is random: a fixed one keeps the examples stable.
  await r.call('patch', '/_mock/settings', {
    body: { callback_auth_key: 'example-callback-key', completion: { mode: 'manual' } },
  });
  const body = fixture<Record<string, unknown>>('tasks/categorization.create.json');
  const failed = await r.call('post', '/v1/task/categorization', { body });
  await r.call('post', '/_mock/tasks/{taskId}/fail', {
    params: { taskId: String(failed.task_id) },
    body: { error: 'The attachment could not be downloaded' },
  });
  const task = await r.call('post', '/v1/task/categorization', { body });
  const params = { taskId: String(task.task_id) };
  await r.call('post', '/_mock/tasks/{taskId}/complete', { params, body: { response: { category: 'blurry' } } });
  await r.call('post', '/_mock/tasks/{taskId}/audit', {
    params,
    body: { result: 'fixed', response: { category: 'suitable' }, comments: 'Sharp enough' },
  });
  await r.call('post', '/_mock/tasks/{taskId}/redo', { params });
  await r.call('get', '/_mock/clock');
  await r.call('post', '/_mock/clock/advance', { body: { ms: 60_000 } });
  await r.call('get', '/_mock/callbacks', { query: `task_id=${String(task.task_id)}` });
  await r.call('get', '/_mock/tasks/{taskId}', { params });
  await r.call('get', '/_mock/tasks/{taskId}/timeline', { params });
  await r.call('get', '/_mock/settings');
  await r.call('get', '/_mock/health');
  await faultCalls(r);
  const state = await r.call('get', '/_mock/state');
  await r.call('post', '/_mock/reset');
  await r.call('put', '/_mock/state', { body: state });
}

/** Fault rules: add, list, remove one, remove all. */
async function faultCalls(r: Recorder): Promise<void> {
  const rule = { method: 'GET', path: '/v1/tasks', status: 503, times: 1, seed: 7 };
  const added = await r.call('post', '/_mock/faults', { body: rule });
  await r.call('get', '/_mock/faults');
  await r.call('delete', '/_mock/faults/{faultId}', { params: { faultId: String(added.id) } });
  await r.call('post', '/_mock/faults', { body: { path: '/v1/task/*', delay_ms: 250, probability: 0.5, seed: 7 } });
  await r.call('delete', '/_mock/faults');
}

/** The v2 API on the same store, and the control routes that make what it reads. */
async function v2Calls(r: Recorder): Promise<void> {
  const project_name = 'support-chats';
  await r.call('post', '/v1/projects', { body: { type: 'chat', name: project_name } });
  await r.call('get', '/v2/projects');
  const project = await r.call('get', '/v2/project', { query: `project_name=${project_name}` });
  const batch = await r.call('post', '/v2/batch', {
    body: { name: 'chats-1', project_id: project.id, staging_batch: true, metadata: { team: 'support' } },
  });
  const batch_id = String(batch.id);
  await r.call('get', '/v2/batch', { query: `batch_id=${batch_id}&expand=project` });
  await r.call('get', '/v2/batches', { query: `project_name=${project_name}&limit=10` });
  await r.call('post', '/v2/batch/metadata', { body: { batch_id, metadata: { shift: 'night' }, merge: true } });
  await r.call('post', '/v2/batch/finalize', { body: { batch_id } });
  await r.call('post', '/v2/batch/pause', { body: { batch_id } });
  await r.call('post', '/v2/batch/resume', { body: { batch_id } });
  const task = await r.call('post', '/v2/task/chat', {
    body: { batch_id, template_variables: { prompt: 'How do I reset my password?' }, metadata: { ticket: 'T-17' } },
  });
  const task_id = String(task.task_id);
  await r.call('post', '/v2/task', { body: { project_name, template_variables: { prompt: 'Where is my order?' } } });
  await r.call('post', '/v2/task/metadata', { body: { task_id, metadata: { priority: 'high' }, merge: true } });
  await r.call('post', '/_mock/tasks/{taskId}/complete', { params: { taskId: task_id } });
  await r.call('get', '/v2/task', { query: `task_id=${task_id}&opts=annotation_details` });
  await r.call('get', '/v2/tasks', { query: `batch_id=${batch_id}&status=completed&limit=10` });
  await r.call('get', '/v2/annotation', { query: `annotation_id=${task_id}.a1` });
  const schema = await r.call('post', '/_mock/v2/schemas', {
    body: { json: { type: 'object', properties: { text: { type: 'string' } } } },
  });
  const schemaId = String((schema.schema as Record<string, unknown>).id);
  const delivery = await r.call('post', '/_mock/v2/deliveries', {
    body: { name: 'week-1', project: project_name, response_schema_id: schemaId },
  });
  await r.call('get', '/v2/deliveries', { query: `project_name=${project_name}` });
  await r.call('get', '/v2/delivery', { query: `delivery_id=${String(delivery.id)}&limit=10` });
  await r.call('get', '/v2/delivery/tasks', { query: `delivery_id=${String(delivery.id)}` });
  await r.call('get', '/v2/schema', { query: `schema_id=${schemaId}` });
  const form = new FormData();
  form.set('file', new Blob(['Hello!'], { type: 'text/plain' }), 'reply.txt');
  const file = await r.call('post', '/v1/files/upload', { form });
  const dataset = await r.call('post', '/_mock/v2/datasets', {
    body: {
      name: 'replies',
      deliveries: [
        {
          name: 'replies-1',
          tasks: [{ task_id: 'reply-1', response: { rating: 5 }, attachments: [{ id: 'a1', file_id: file.id }] }],
        },
      ],
    },
  });
  const deliveries = dataset.deliveries as Record<string, unknown>[];
  await r.call('get', '/v2/datasets');
  await r.call('get', '/v2/datasets/deliveries', { query: `dataset_id=${String(dataset.id)}` });
  await r.call('get', '/v2/datasets/delivery', { query: `delivery_id=${String(deliveries[0]?.id)}` });
  await r.call('get', '/v2/datasets/tasks', { query: `dataset_id=${String(dataset.id)}&limit=10` });
  await r.call('get', '/v2/datasets/task', { query: 'task_id=reply-1&expand=dataset' });
  const other = await r.call('post', '/v2/batch', { body: { name: 'chats-2', project_name } });
  await r.call('post', '/v2/batch/cancel', { body: { batch_id: String(other.id) } });
}

async function record(steps: ((r: Recorder) => Promise<void>)[]): Promise<OperationExamples> {
  const r = new Recorder();
  try {
    for (const step of steps) await step(r);
    return r.examples;
  } finally {
    r.app.dispose();
  }
}

/** Every documented operation's example pair, by `METHOD path` (written to fixtures/examples/operations.json). */
export async function recordExamples(): Promise<OperationExamples> {
  const control = await record([controlCalls]);
  const api = await record([projectCalls, taskCalls, fileCalls, studioCalls, qualityCalls]);
  const v2 = await record([v2Calls]);
  return Object.fromEntries(Object.entries({ ...api, ...v2, ...control }).sort(([a], [b]) => a.localeCompare(b)));
}
