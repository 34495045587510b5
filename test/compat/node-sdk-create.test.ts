import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type Callback,
  freshKey,
  loadSdk,
  type Mock,
  ok,
  refused,
  type ScaleApi,
  type SdkClient,
  type SdkTask,
  startMock,
  tapAnswers,
} from './node-sdk-harness.js';

/**
 * Node SDK (`scaleapi` 2.3.2): each generated `create<Type>Task` method against a real labelmock
 * server, once with a body the real service takes and once without a required parameter. Bodies
 * are written the way the SDK's own tests and README write them (attachment_type, flat lists).
 */

const IMAGE = 'http://example.com/images/cows.jpg';
const base = { callback_url: 'http://www.example.com/callback', instruction: 'Label the image.' };
const shapes = (objects: string[]) => ({
  ...base,
  attachment_type: 'image',
  attachment: IMAGE,
  objects_to_annotate: objects,
  with_labels: true,
});

/** SDK method, task type, a valid body and the required parameter the refused body leaves out. */
const CASES: Array<{ method: string; type: string; body: Record<string, unknown>; required: string }> = [
  {
    method: 'createCategorizationTask',
    type: 'categorization',
    required: 'categories',
    body: {
      ...base,
      attachment_type: 'website',
      attachment: 'http://www.example.com/',
      categories: ['public', 'private'],
    },
  },
  {
    method: 'createTranscriptionTask',
    type: 'transcription',
    required: 'fields',
    body: {
      ...base,
      attachment_type: 'website',
      attachment: 'http://www.example.com/',
      fields: { title: 'Title of the page' },
      repeatable_fields: { username: 'Submitter' },
    },
  },
  {
    method: 'createComparisonTask',
    type: 'comparison',
    required: 'choices',
    body: {
      ...base,
      attachment_type: 'image',
      attachments: [IMAGE, 'http://example.com/images/cloth.jpg'],
      choices: ['yes', 'no'],
    },
  },
  {
    method: 'createAnnotationTask',
    type: 'annotation',
    required: 'objects_to_annotate',
    body: { ...shapes(['baby cow', 'big cow']), min_width: '30' },
  },
  {
    method: 'createPolygonannotationTask',
    type: 'polygonannotation',
    required: 'objects_to_annotate',
    body: shapes(['big cow']),
  },
  {
    method: 'createLineannotationTask',
    type: 'lineannotation',
    required: 'objects_to_annotate',
    body: { ...shapes(['leg']), splines: true },
  },
  {
    method: 'createDatacollectionTask',
    type: 'datacollection',
    required: 'fields',
    body: {
      ...base,
      attachment_type: 'website',
      attachment: 'http://www.example.com/',
      fields: { hiring_page: 'Hiring page URL' },
    },
  },
  {
    method: 'createAudiotranscriptionTask',
    type: 'audiotranscription',
    required: 'attachment',
    body: {
      callback_url: base.callback_url,
      attachment_type: 'audio',
      attachment: 'http://example.com/audio/speaker-3.wav',
      verbatim: false,
    },
  },
  {
    method: 'createPointannotationTask',
    type: 'pointannotation',
    required: 'objects_to_annotate',
    body: shapes(['big cow']),
  },
  {
    method: 'createCuboidannotationTask',
    type: 'cuboidannotation',
    required: 'objects_to_annotate',
    body: shapes(['car']),
  },
  {
    method: 'createSegmentannotationTask',
    type: 'segmentannotation',
    required: 'labels',
    body: {
      ...base,
      attachment_type: 'image',
      attachment: IMAGE,
      labels: ['big cow', 'background'],
      allow_unlabeled: true,
    },
  },
];

let mock: Mock;
let sdk: ScaleApi;
let client: SdkClient;
let answers: ReturnType<typeof tapAnswers>;

beforeAll(async () => {
  mock = await startMock(); // test keys start in manual mode: created tasks stay pending
  sdk = loadSdk(mock);
  answers = tapAnswers();
  client = new sdk.ScaleClient(freshKey('nodesdk_create'));
});
afterAll(() => mock.close());

/** Calls a generated method by name, as user code does (`client.createCategorizationTask(...)`). */
function generated(method: string): (params: object, cb: Callback<SdkTask>) => void {
  const fn = client[method];
  if (typeof fn !== 'function') throw new Error(`the SDK has no ${method}`);
  return (params, cb) => fn.call(client, params, cb);
}

it('ScaleClient: generates one create<Type>Task method for each of the eleven types tested here', () => {
  expect(CASES.map((c) => c.method).filter((m) => typeof client[m] !== 'function')).toEqual([]);
});

for (const { method, type, body, required } of CASES) {
  it(`${method}: creates a pending ${type} task that fetchTask returns unchanged`, async () => {
    const task = await ok<SdkTask>((cb) => generated(method)(body, cb));
    expect(answers.at(-1)?.status).toBe(200);
    expect(task).toBeInstanceOf(Object);
    expect(task.id).toMatch(/\S/);
    expect(task.id).toBe(task.task_id); // the SDK copies task_id to id
    expect(task).toMatchObject({ type, status: 'pending', callback_url: body.callback_url });
    if ('instruction' in body) expect(task.instruction).toBe(body.instruction);
    // Type parameters sit under `params` (as on the real service), the required one among them.
    const given = Object.fromEntries(
      ['attachment', 'attachments', required].map((f) => [f, body[f]]).filter(([, v]) => v !== undefined),
    );
    expect(task.params).toMatchObject(given);
    const fetched = await ok<SdkTask>((cb) => client.fetchTask(task.id, cb));
    for (const field of ['id', 'type', 'status', 'created_at', 'callback_url', 'metadata'])
      expect(fetched[field]).toEqual(task[field]);
  });
}

for (const { method, type, body, required } of CASES) {
  it(`${method}: refuses a ${type} body without "${required}" (400 naming it)`, async () => {
    const { [required]: _left, ...rest } = body;
    const err = await refused((cb) => generated(method)(rest, cb));
    expect(err).toBeInstanceOf(sdk.ScaleException);
    expect(err.errcode).toBe(400);
    expect(err.message).toContain(`"${required}"`);
    const answer = answers.at(-1);
    expect(answer?.status).toBe(400);
    expect(answer?.body).toEqual({ status_code: 400, error: err.message });
  });
}

it('createTask: creates any task type by name, here an imageannotation with geometries', async () => {
  const body = { ...base, attachment: IMAGE, geometries: { box: { objects_to_annotate: ['cow'] } } };
  const task = await ok<SdkTask>((cb) => client.createTask('imageannotation', body, cb));
  expect(task).toMatchObject({
    type: 'imageannotation',
    status: 'pending',
    params: { attachment: IMAGE, geometries: body.geometries },
  });
});

it('createTask: an unknown task type is a ScaleException 400 naming the supported types', async () => {
  const err = await refused((cb) => client.createTask('telepathy', { ...base, attachment: IMAGE }, cb));
  expect(err).toBeInstanceOf(sdk.ScaleException);
  expect(err.errcode).toBe(400);
  expect(err.message).toMatch(/telepathy.*categorization/s);
});
