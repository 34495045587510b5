import { describe, expect, it } from 'vitest';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import { OTHER_TYPE_TABLE } from '../src/domain/tasks/types/other-types.js';
import { fixture } from '../src/fixtures.js';
import { makeApp, type TestApp } from './helpers.js';
import { expectResponseFits } from './type-fits.js';

/** Every task type the official clients name beyond the ten the interface specifies. */
const OTHER_TYPES = [
  'annotation',
  'categorization',
  'comparison',
  'cuboidannotation',
  'datacollection',
  'documentmodel',
  'documenttranscription',
  'laneannotation',
  'lineannotation',
  'pointannotation',
  'polygonannotation',
  'transcription',
  'videoboxannotation',
  'audiotranscription',
  'videocuboidannotation',
  'sensorfusion',
  'chat',
  'chatexperimental',
  'chatlite',
  'multichat',
  'multistage',
];

/** The required parameters real-service-notes lists per type. */
const REQUIRED: Record<string, string[]> = {
  categorization: ['attachment', 'categories'],
  annotation: ['attachment', 'objects_to_annotate'],
  polygonannotation: ['attachment', 'objects_to_annotate'],
  lineannotation: ['attachment', 'objects_to_annotate'],
  pointannotation: ['attachment', 'objects_to_annotate'],
  cuboidannotation: ['attachment', 'objects_to_annotate'],
  documenttranscription: ['attachment', 'features'],
  transcription: ['attachment', 'fields'],
  datacollection: ['attachment', 'fields'],
  comparison: ['attachments'],
  audiotranscription: ['attachment'],
};

const request = (type: string, change: (body: any) => void = () => {}) => {
  const body = fixture<any>(`tasks/${type}.create.json`);
  change(body);
  return body;
};

async function create(t: TestApp, type: string, change?: (body: any) => void) {
  const res = await t.call('POST', `/v1/task/${type}`, { body: request(type, change) });
  if (res.status !== 200) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const complete = (t: TestApp, taskId: string, response?: unknown) =>
  t.call('POST', `/_mock/tasks/${taskId}/complete`, response === undefined ? {} : { body: { response } });

describe('the other task types', () => {
  it('the registry serves exactly these other types, from one table', () => {
    expect(OTHER_TYPE_TABLE.map((spec) => spec.type).sort()).toEqual([...OTHER_TYPES].sort());
    for (const type of OTHER_TYPES) expect(TASK_TYPES[type]?.type).toBe(type);
  });

  for (const type of OTHER_TYPES) {
    it(`POST /v1/task/${type} accepts its fixture, stores other parameters as given, fills defaults`, async () => {
      const t = makeApp();
      const body = request(type);
      const res = await t.call('POST', `/v1/task/${type}`, { body });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        type,
        status: 'pending',
        instruction: body.instruction,
        callback_url: body.callback_url,
        metadata: body.metadata,
      });
      const { instruction: _i, callback_url: _c, metadata: _m, ...params } = body;
      // What the real service wrote into recorded tasks for parameters left out (test/compat/ruby-recordings.test.ts).
      expect(res.body.params).toEqual({ ...TASK_TYPES[type]?.paramDefaults, ...params });
    });

    it(`POST /_mock/tasks/{id}/complete synthesizes a ${type} response that fits its shape and the task`, async () => {
      const t = makeApp();
      const task = await create(t, type);
      const res = await complete(t, task.task_id);
      expect(res.status).toBe(200);
      expectResponseFits(res.body);
    });

    it(`POST /v1/task/${type} still validates the common parameters`, async () => {
      const t = makeApp();
      const res = await t.call('POST', `/v1/task/${type}`, {
        body: request(type, (b) => Object.assign(b, { priority: 15, tags: 'x' })),
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/"priority" must be 10, 20 or 30/);
      expect(res.body.error).toMatch(/"tags" must be an array/);
    });
  }

  for (const [type, names] of Object.entries(REQUIRED)) {
    for (const name of names) {
      it(`POST /v1/task/${type} without ${name} is a 400 naming it`, async () => {
        const t = makeApp();
        const res = await t.call('POST', `/v1/task/${type}`, { body: request(type, (b) => delete b[name]) });
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(`Parameter is invalid, reason: "${name}" is required`);
      });
    }
  }

  const rejections: [string, string, (b: any) => void, RegExp][] = [
    ['categorization', 'empty categories', (b) => (b.categories = []), /"categories" must have at least 1 item/],
    [
      'categorization',
      'repeated categories',
      (b) => (b.categories = ['a', 'a']),
      /"categories" must not repeat labels \(repeated: a\)/,
    ],
    ['categorization', 'an empty attachment', (b) => (b.attachment = ' '), /"attachment" must be a non-empty string/],
    [
      'annotation',
      'an attachment that is not a URL',
      (b) => (b.attachment = 'street.jpg'),
      /"attachment" must be an absolute URL/,
    ],
    [
      'polygonannotation',
      'a label object without choice',
      (b) => (b.objects_to_annotate = [{ subchoices: ['x'] }]),
      /"objects_to_annotate\[0\].choice" is required/,
    ],
    ['documenttranscription', 'empty features', (b) => (b.features = []), /"features" must have at least 1 item/],
    ['transcription', 'fields with no field', (b) => (b.fields = {}), /"fields" must name at least one field/],
    ['datacollection', 'fields that are not an object', (b) => (b.fields = ['phone']), /"fields" must be an object/],
    [
      'chat',
      'a callback_url without scheme',
      (b) => (b.callback_url = 'example.com/cb'),
      /"callback_url" must be a full URL/,
    ],
  ];
  for (const [type, what, change, message] of rejections) {
    it(`POST /v1/task/${type} rejects ${what} with 400`, async () => {
      const t = makeApp();
      const res = await t.call('POST', `/v1/task/${type}`, { body: request(type, change) });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /_mock/tasks/{id}/complete synthesizes the first leaf category for categorization', async () => {
    const t = makeApp();
    const task = await create(
      t,
      'categorization',
      (b) => (b.categories = [{ choice: 'animal', subchoices: ['cat', 'dog'] }, 'plant']),
    );
    // category_id null without category_ids, as the real service answered (task_find_valid.yml, scaleapi-ruby@e6354d9).
    expect((await complete(t, task.task_id)).body.response).toEqual({ category: 'cat', category_id: null });
  });

  // The 2018 docs (alexandrwang/slate@3107e50, source/includes/_categorization.mdown): category_ids maps ids to
  // categories, and the response names the chosen one's id; allow_multiple answers lists.
  it('POST /_mock/tasks/{id}/complete names the category_id of category_ids, lists with allow_multiple', async () => {
    const t = makeApp();
    const ids = { '123': 'Blue Cross', '124': 'Red Cross' };
    const single = await create(t, 'categorization', (b) => {
      b.categories = ['Blue Cross', 'Red Cross'];
      b.category_ids = ids;
    });
    const one = (await complete(t, single.task_id)).body;
    expect(one.response).toEqual({ category: 'Blue Cross', category_id: '123' });
    expectResponseFits(one);
    const multiple = await create(t, 'categorization', (b) => {
      b.categories = ['Blue Cross', 'Red Cross'];
      b.category_ids = ids;
      b.allow_multiple = true;
    });
    const many = (await complete(t, multiple.task_id)).body;
    expect(many.response).toEqual({ category: ['Blue Cross'], category_id: ['123'] });
    expectResponseFits(many);
  });

  it('POST /_mock/tasks/{id}/complete synthesizes one shape per label for the legacy annotation types', async () => {
    const t = makeApp();
    const expected: Record<string, string> = {
      annotation: 'box',
      polygonannotation: 'polygon',
      lineannotation: 'polygon',
      pointannotation: 'point',
      cuboidannotation: 'cuboid',
    };
    for (const [type, shape] of Object.entries(expected)) {
      const task = await create(t, type);
      const { annotations } = (await complete(t, task.task_id)).body.response;
      expect(annotations.map((a: { label: string }) => a.label)).toEqual(request(type).objects_to_annotate);
      expect(annotations.every((a: { type: string }) => a.type === shape)).toBe(true);
    }
  });

  it('POST /_mock/tasks/{id}/complete answers each field of transcription and datacollection', async () => {
    const t = makeApp();
    const task = await create(t, 'datacollection');
    expect((await complete(t, task.task_id)).body.response).toEqual({
      fields: { opening_hours: 'synthesized opening_hours', phone: 'synthesized phone' },
    });
  });

  const given: [string, unknown][] = [
    ['categorization', { category: 'violence', confidence: 0.9 }],
    ['categorization', { category: ['blurry', 'adult'] }],
    ['annotation', { annotations: [{ label: 'truck', left: 1, top: 2, width: 3, height: 4 }] }],
    ['transcription', { fields: { total: '12.50' } }],
    ['chat', { result: 'done', turns: [{ role: 'user', text: 'hi' }] }],
    ['multistage', { stages: [] }],
  ];
  for (const [type, response] of given) {
    const shown = JSON.stringify(response).slice(0, 40);
    it(`POST /_mock/tasks/{id}/complete stores a given ${type} response ${shown}`, async () => {
      const t = makeApp();
      const task = await create(t, type);
      const res = await complete(t, task.task_id, response);
      expect(res.status).toBe(200);
      expect(res.body.response).toEqual(response);
    });
  }

  const misfits: [string, unknown, RegExp][] = [
    [
      'categorization',
      { category: 'inappropriate' },
      /"response.category" has "inappropriate", not among the task's categories/,
    ],
    ['categorization', { label: 'suitable' }, /"response.category" is required/],
    [
      'polygonannotation',
      { annotations: [{ label: 'road', vertices: [] }] },
      /"response.annotations\[0\].label" is "road", not one of objects_to_annotate/,
    ],
    ['pointannotation', { points: [] }, /"response.annotations" is required/],
    [
      'transcription',
      { fields: { tip: '1.00' } },
      /"response.fields.tip" is not one of the task's fields \(merchant, total\)/,
    ],
    ['chat', { result: 42 }, /"response.result" must be a string/],
  ];
  for (const [type, response, message] of misfits) {
    const shown = JSON.stringify(response).slice(0, 40);
    it(`POST /_mock/tasks/{id}/complete rejects a ${type} response ${shown}`, async () => {
      const t = makeApp();
      const task = await create(t, type);
      const res = await complete(t, task.task_id, response);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }
});
