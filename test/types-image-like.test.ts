import { describe, expect, it } from 'vitest';
import { fixture } from '../src/fixtures.js';
import { uploadText } from './file-helpers.js';
import { KEY, makeApp, STRICT, type TestApp } from './helpers.js';
import { expectResponseFits } from './type-fits.js';

type Body = Record<string, unknown>;
type Mutation = (response: any) => void;

/** The committed creation fixture of a type, with top-level overrides (undefined removes a key). */
const request = (type: string, overrides: Body = {}): Body => ({
  ...fixture<Body>(`tasks/${type}.create.json`),
  ...overrides,
});

async function create(t: TestApp, type: string, overrides: Body = {}) {
  const res = await t.call('POST', `/v1/task/${type}`, { body: request(type, overrides) });
  if (res.status !== 200) throw new Error(`create ${type} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const complete = (t: TestApp, taskId: string, response?: unknown) =>
  t.call('POST', `/_mock/tasks/${taskId}/complete`, response === undefined ? {} : { body: { response } });

/** A synthesized response must pass the type's own response shape and its fit check against the task. */
const expectFits = (task: any): void => expectResponseFits(task);

function rejectsEach(type: string, cases: [string, Body, RegExp][]): void {
  for (const [what, overrides, message] of cases) {
    it(`POST /v1/task/${type} rejects ${what} with 400`, async () => {
      const res = await makeApp(STRICT).call('POST', `/v1/task/${type}`, { body: request(type, overrides) });
      expect(res.status).toBe(400);
      expect(res.body.status_code).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }
}

function rejectsResponses(
  type: string,
  valid: () => any,
  cases: [string, Mutation, RegExp][],
  overrides: Body = {},
): void {
  for (const [what, mutate, message] of cases) {
    it(`POST /_mock/tasks/{id}/complete rejects a ${type} response with ${what}`, async () => {
      const t = makeApp();
      const task = await create(t, type, overrides);
      const response = valid();
      mutate(response);
      const res = await complete(t, task.task_id, response);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    });
  }
}

// ---------------------------------------------------------------- segmentannotation

const url = (name: string) => `https://results.example.com/${name}.png`;

/** A valid response for the segmentannotation fixture (car, bus and person are instance labels). */
const validSegmentation = () => ({
  labelMapping: {
    road: { color: '#ff0000', index: 1 },
    sidewalk: { color: '#00ff00', index: 2 },
    vegetation: { color: '#0000ff', index: 3 },
    car: [{ color: '#aa0000', index: 4, attributes: { occluded: 'no' } }],
    bus: [
      { color: '#00aa00', index: 5 },
      { color: '#00bb00', index: 6 },
    ],
    person: [{ color: '#0000aa', index: 7 }],
  },
  annotations: {
    unlabeled: null,
    labeled: {
      road: url('road'),
      sidewalk: url('sidewalk'),
      vegetation: url('veg'),
      car: [url('car0')],
      bus: [url('bus0'), url('bus1')],
      person: [url('p0')],
    },
    combined: { image: url('combined'), indexedImage: url('indexed') },
  },
});

describe('POST /v1/task/segmentannotation', () => {
  it('POST /v1/task/segmentannotation answers 200 and stores the params with attachment_type image', async () => {
    const res = await makeApp().call('POST', '/v1/task/segmentannotation', { body: request('segmentannotation') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'segmentannotation',
      status: 'pending',
      metadata: { customer_ref: 'order-18' },
      tags: ['street'],
    });
    const given = request('segmentannotation');
    expect(res.body.params).toEqual({
      attachment_type: 'image',
      attachment: given.attachment,
      labels: given.labels,
      allow_unlabeled: false,
      // Filled by the server, as recorded (scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/segment_annotation.yml).
      allow_parent_labels: false,
      annotation_attributes: given.annotation_attributes,
      context_attachments: given.context_attachments,
    });
  });

  it('POST /v1/task/segmentannotation accepts 50 labels, a hypothesis and a condition on a parent choice', async () => {
    const labels = Array.from({ length: 50 }, (_, i) => `label-${i}`);
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/segmentannotation', {
      body: request('segmentannotation', { labels, annotation_attributes: undefined, hypothesis: { masks: [] } }),
    });
    expect(res.status).toBe(200);
    expect(res.body.params.labels).toHaveLength(50);
    expect(res.body.params.hypothesis).toEqual({ masks: [] });
    const parent = await t.call('POST', '/v1/task/segmentannotation', {
      body: request('segmentannotation', {
        annotation_attributes: {
          moving: { description: 'Moving?', choices: ['yes'], conditions: { label_condition: 'vehicle' } },
        },
      }),
    });
    expect(parent.status).toBe(200);
  });

  rejectsEach('segmentannotation', [
    ['a missing attachment', { attachment: undefined }, /"attachment" is required/],
    ['an attachment without scheme', { attachment: 'images/a.jpg' }, /"attachment" must be an absolute URL/],
    ['missing labels', { labels: undefined }, /"labels" is required/],
    ['empty labels', { labels: [] }, /"labels" must have at least 1 item/],
    ['51 labels', { labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }, /"labels" must have at most 50 item/],
    [
      'a repeated label',
      { labels: ['road', { choice: 'x', subchoices: ['road'] }] },
      /"labels" must not repeat labels \(repeated: road\)/,
    ],
    ['a label object without choice', { labels: [{ subchoices: ['a'] }] }, /"labels\[0\].choice" is required/],
    [
      'an instance_label that is not boolean',
      { labels: [{ choice: 'car', instance_label: 'yes' }] },
      /"labels\[0\].instance_label" must be a boolean/,
    ],
    ['attachment_type video', { attachment_type: 'video' }, /"attachment_type" must be "image"/],
    ['allow_unlabeled that is not boolean', { allow_unlabeled: 'yes' }, /"allow_unlabeled" must be a boolean/],
    [
      'a context attachment equal to the attachment',
      { context_attachments: [{ attachment: 'https://example.com/images/intersection.jpg' }] },
      /"context_attachments\[0\].attachment" must not equal the task attachment/,
    ],
    [
      'a context attachment that is not a URL',
      { context_attachments: [{ attachment: 'wide.jpg' }] },
      /"context_attachments\[0\].attachment" must be an absolute URL/,
    ],
    [
      'a context attachment with an unknown key',
      { context_attachments: [{ attachment: 'https://x.test/a.jpg', url: 'x' }] },
      /"context_attachments\[0\].url" is not an allowed parameter/,
    ],
    [
      'context_attachments that is not an array',
      { context_attachments: { attachment: 'https://x.test/a.jpg' } },
      /"context_attachments" must be an array/,
    ],
    [
      'a label condition naming an absent label',
      { annotation_attributes: { a: { description: 'q', choices: ['x'], conditions: { label_condition: 'plane' } } } },
      /"annotation_attributes.a.conditions.label_condition" names label "plane"/,
    ],
    [
      'a category attribute without choices',
      { annotation_attributes: { a: { description: 'q' } } },
      /"annotation_attributes.a.choices" is required/,
    ],
    [
      'an attribute condition naming an absent attribute',
      {
        annotation_attributes: {
          a: { description: 'q', choices: ['x'], conditions: { attribute_conditions: { nope: 'x' } } },
        },
      },
      /names attribute "nope"/,
    ],
    ['a hypothesis that is not an object', { hypothesis: 'masks' }, /"hypothesis" must be an object/],
    [
      'the imageannotation spelling context_attachment',
      { context_attachment: [] },
      /"context_attachment" is not an allowed parameter/,
    ],
    [
      'geometries (an image annotation parameter)',
      { geometries: { box: { objects_to_annotate: ['a'] } } },
      /"geometries" is not an allowed parameter/,
    ],
    ['priority 15', { priority: 15 }, /"priority" must be 10, 20 or 30/],
  ]);

  it('POST /_mock/tasks/{id}/complete stores a given valid segmentation response', async () => {
    const t = makeApp();
    const task = await create(t, 'segmentannotation');
    const res = await complete(t, task.task_id, validSegmentation());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.body.response).toEqual(validSegmentation());
  });

  // The real service sends an unlabeled mask even with allow_unlabeled false: it then marks no pixel
  // (scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/segment_annotation.yml).
  it('POST /_mock/tasks/{id}/complete accepts an unlabeled mask whatever allow_unlabeled says', async () => {
    const t = makeApp();
    const task = await create(t, 'segmentannotation', { allow_unlabeled: false });
    const response = validSegmentation();
    (response.annotations as any).unlabeled = url('unlabeled');
    expect((await complete(t, task.task_id, response)).status).toBe(200);
  });

  rejectsResponses('segmentannotation', validSegmentation, [
    [
      'a parent choice as label',
      (r) => (r.labelMapping.vehicle = { color: '#123456', index: 9 }),
      new RegExp(
        `"response.labelMapping.vehicle" is not one of the task's leaf labels ` +
          '\\(road, sidewalk, vegetation, car, bus, person\\)',
      ),
    ],
    [
      'an instance label mapped to one entry',
      (r) => (r.labelMapping.car = { color: '#123456', index: 4 }),
      /"response.labelMapping.car" must be an array \(one entry per instance\)/,
    ],
    [
      'a plain label mapped to an array',
      (r) => (r.labelMapping.road = [{ color: '#123456', index: 1 }]),
      /"response.labelMapping.road" must be a single \{color, index\}/,
    ],
    [
      'a repeated index',
      (r) => (r.labelMapping.sidewalk.index = 1),
      /"response.labelMapping.sidewalk.index" repeats index 1, already used by "road"/,
    ],
    [
      'a label without its mask',
      (r) => delete r.annotations.labeled.road,
      /"response.annotations.labeled" lacks the mask of "road"/,
    ],
    [
      'a mask of a label not in labelMapping',
      (r) => (r.annotations.labeled.sky = url('sky')),
      /"response.annotations.labeled.sky" has no entry in labelMapping/,
    ],
    [
      'fewer instance masks than instances',
      (r) => (r.annotations.labeled.bus = [url('bus0')]),
      /"response.annotations.labeled.bus" must match labelMapping.bus/,
    ],
    [
      'attributes on a plain label',
      (r) => (r.labelMapping.road.attributes = { occluded: 'no' }),
      /"response.labelMapping.road.attributes" are only allowed on instances/,
    ],
    [
      'an attribute value not offered',
      (r) => (r.labelMapping.car[0].attributes.occluded = 'maybe'),
      /"response.labelMapping.car\[0\].attributes.occluded" has value\(s\) "maybe"/,
    ],
    [
      'an attribute not defined',
      (r) => (r.labelMapping.car[0].attributes.speed = 3),
      /"response.labelMapping.car\[0\].attributes.speed" is not an attribute defined/,
    ],
    [
      'a color that is not hex',
      (r) => (r.labelMapping.road.color = 'red'),
      /"response.labelMapping.road.color" must be a hex color/,
    ],
    [
      'index 0 (the unlabeled value)',
      (r) => (r.labelMapping.road.index = 0),
      /"response.labelMapping.road.index" must be at least 1/,
    ],
    ['no combined images', (r) => delete r.annotations.combined, /"response.annotations.combined" is required/],
    [
      'a combined image that is not a URL',
      (r) => (r.annotations.combined.indexedImage = 'indexed.png'),
      /"response.annotations.combined.indexedImage" must be an absolute URL/,
    ],
    ['an unknown top-level key', (r) => (r.masks = []), /"response.masks" is not an allowed parameter/],
  ]);

  it('POST /_mock/tasks/{id}/complete synthesizes a mapping of every leaf label, instances as arrays', async () => {
    const t = makeApp();
    const task = await create(t, 'segmentannotation');
    const res = await complete(t, task.task_id);
    expect(res.status).toBe(200);
    const { labelMapping, annotations } = res.body.response;
    expect(Object.keys(labelMapping)).toEqual(['road', 'sidewalk', 'vegetation', 'car', 'bus', 'person']);
    expect(Array.isArray(labelMapping.car)).toBe(true);
    expect(Array.isArray(labelMapping.road)).toBe(false);
    expect(annotations.labeled.car).toHaveLength(labelMapping.car.length);
    // Without allow_unlabeled too: the mask then marks no pixel (the recording below).
    expect(annotations.unlabeled).toMatch(/^https:\/\/.*\/unlabeled\.png$/);
    expect(labelMapping.car[0].attributes).toEqual({ occluded: 'yes' });
    expectFits(res.body);
  });

  // The Ruby client's request, replayed: scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/segment_annotation.yml.
  // The real service accepted instance_labels, echoed it in params, filled allow_parent_labels, and answered an
  // unlabeled mask although allow_unlabeled was false.
  it('POST /v1/task/segmentannotation takes instance_labels as the Ruby client sends them (recorded)', async () => {
    const t = makeApp();
    const body = {
      callback_url: 'http://www.example.com/callback',
      instruction: 'Please segment the image using the given labels.',
      attachment_type: 'image',
      attachment: 'http://i.imgur.com/XOJbalC.jpg',
      labels: ['background', 'road', 'vegetation', 'lane marking'],
      instance_labels: ['vehicle', 'pedestrian'],
      allow_unlabeled: false,
    };
    const created = await t.call('POST', '/v1/task/segmentannotation', { body });
    expect(created.status).toBe(200);
    expect(created.headers.get('labelmock-warning')).toBeNull();
    expect(created.body.params).toEqual({
      attachment: body.attachment,
      attachment_type: 'image',
      labels: body.labels,
      instance_labels: body.instance_labels,
      allow_unlabeled: false,
      allow_parent_labels: false,
    });
    const res = await complete(t, created.body.task_id);
    const { labelMapping, annotations } = res.body.response;
    expect(Object.keys(labelMapping)).toEqual([...body.labels, ...body.instance_labels]);
    expect(Array.isArray(labelMapping.vehicle)).toBe(true);
    expect(Array.isArray(labelMapping.road)).toBe(false);
    expect(annotations.unlabeled).toMatch(/^https:\/\//);
    expectFits(res.body);
  });

  it('POST /v1/task/segmentannotation refuses a name in both labels and instance_labels', async () => {
    const res = await makeApp().call('POST', '/v1/task/segmentannotation', {
      body: request('segmentannotation', { instance_labels: ['road'] }),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"instance_labels" must not repeat labels of "labels" \(repeated: road\)/);
  });

  it('synthesized segmentation responses are the same for the same task id and differ between tasks', async () => {
    const a = makeApp();
    const b = makeApp();
    const ra = await complete(a, (await create(a, 'segmentannotation')).task_id);
    const rb = await complete(b, (await create(b, 'segmentannotation')).task_id);
    expect(ra.body.response).toEqual(rb.body.response);
    const other = await complete(a, (await create(a, 'segmentannotation')).task_id);
    expect(other.body.response.labelMapping).not.toEqual(ra.body.response.labelMapping);
  });
});

// ---------------------------------------------------------------- videoannotation

const box = (uuid: string, label: string, left: number) => ({
  uuid,
  type: 'box',
  label,
  left,
  top: 10,
  width: 20,
  height: 30,
  attributes: { moving: 'yes' },
});
const point = (uuid: string, x: number) => ({ uuid, type: 'point', label: 'pedestrian', x, y: 6, attributes: {} });

/**
 * A valid response for the videoannotation fixture: 4 image frames, a car box and a pedestrian point tracked through
 * them.
 */
const validVideo = () => ({
  annotations: [0, 1, 2, 3].map((f) => ({ annotations: [box('u1', 'car', 10 + f), point('u2', 5 + f)] })),
  events: [
    { label: 'light turns green', type: 'range', start: 0, startTime: 0, end: 3, endTime: 1.5 },
    { label: 'car honks', type: 'point', start: 2 },
  ],
});

const videoFile = {
  attachment_type: 'video',
  attachments: undefined,
  attachment: 'https://example.com/videos/clip.mp4',
};

describe('POST /v1/task/videoannotation', () => {
  it('POST /v1/task/videoannotation answers 200; stores image frames, attachment_type image, with_labels', async () => {
    const res = await makeApp().call('POST', '/v1/task/videoannotation', {
      body: request('videoannotation', { attachment_type: undefined }),
    });
    expect(res.status).toBe(200);
    const given = request('videoannotation');
    const { callback_url: _cb, instruction: _i, metadata: _m, tags: _t, attachment_type: _at, ...params } = given;
    expect(res.body.params).toEqual({ attachment_type: 'image', with_labels: true, ...params });
    expect(res.body).toMatchObject({ type: 'videoannotation', status: 'pending', tags: ['street', 'video'] });
  });

  const videoCases: [string, Body][] = [
    ['an mp4 attachment', videoFile],
    [
      'a webm URL given as attachments',
      { ...videoFile, attachment: undefined, attachments: 'https://example.com/videos/clip.webm' },
    ],
    ['an ogg URL with a query string', { ...videoFile, attachment: 'https://cdn.example.com/v/clip.OGG?sig=abc' }],
  ];
  for (const [what, overrides] of videoCases) {
    it(`POST /v1/task/videoannotation accepts a video task with ${what}`, async () => {
      const body = request('videoannotation', { ...overrides, start_time: 1.5, duration_time: 4, frame_rate: 5 });
      const res = await makeApp().call('POST', '/v1/task/videoannotation', { body });
      expect(res.status).toBe(200);
      expect(res.body.params).toMatchObject({
        attachment_type: 'video',
        start_time: 1.5,
        duration_time: 4,
        frame_rate: 5,
      });
      expect(res.body.params.attachment ?? res.body.params.attachments).toBe(
        overrides.attachment ?? overrides.attachments,
      );
    });
  }

  it('POST /v1/task/videoannotation accepts an uploaded file (scaledata URL, no extension) of the tenant', async () => {
    const t = makeApp();
    const file = await uploadText(t, 'not really a video', {}, KEY, 'clip');
    const body = request('videoannotation', {
      ...videoFile,
      attachment: file.attachment_url,
      duration_time: 4,
      frame_rate: 5,
    });
    const res = await t.call('POST', '/v1/task/videoannotation', { body });
    expect(res.status).toBe(200);
    expect(res.body.params.attachment).toBe(file.attachment_url);
  });

  it('POST /v1/task/videoannotation accepts every optional parameter', async () => {
    const extra = {
      links: { follows: { from: ['car'], to: ['bus'] } },
      hypothesis: { frames: [] },
      paddingX: 5,
      paddingY: 0,
      base_annotations: { annotations: [{ type: 'box', label: 'car', left: 1, top: 2, width: 3, height: 4 }] },
      can_add_base_annotations: false,
      can_edit_base_annotations: true,
      can_edit_base_annotation_labels: false,
      can_delete_base_annotations: false,
      start_time: 0,
      duration_time: 0,
    };
    const res = await makeApp().call('POST', '/v1/task/videoannotation', { body: request('videoannotation', extra) });
    expect(res.status).toBe(200);
    expect(res.body.params).toMatchObject(extra);
  });

  rejectsEach('videoannotation', [
    ['missing geometries', { geometries: undefined }, /"geometries" is required/],
    ['empty geometries', { geometries: {} }, /"geometries" must name at least one geometry/],
    [
      'image frames without attachments',
      { attachments: undefined },
      /"attachments" is required when attachment_type is image/,
    ],
    [
      'image frames given as one URL',
      { attachments: 'https://example.com/frames/1.jpg' },
      /"attachments" must be an array of frame URLs when attachment_type is image/,
    ],
    ['an empty frame list', { attachments: [] }, /"attachments" must have at least 1 frame URL/],
    [
      'a frame that is not a URL',
      { attachments: ['https://example.com/1.jpg', '2.jpg'] },
      /"attachments\[1\]" must be an absolute URL/,
    ],
    [
      'attachments that are a number',
      { attachments: 3 },
      /"attachments" must be an array of frame URLs or one video URL/,
    ],
    [
      'attachment with image frames',
      { attachment: 'https://example.com/videos/clip.mp4' },
      /"attachment" is only allowed when attachment_type is video/,
    ],
    ['attachment_type audio', { attachment_type: 'audio' }, /"attachment_type" must be one of "image", "video"/],
    [
      'a video task without its video',
      { ...videoFile, attachment: undefined },
      /"attachment" is required when attachment_type is video/,
    ],
    [
      'a video attachment without scheme',
      { ...videoFile, attachment: 'clip.mp4' },
      /"attachment" must be an absolute URL/,
    ],
    [
      'a video in attachments without scheme',
      { ...videoFile, attachment: undefined, attachments: 'clip.mp4' },
      /"attachments" must be an absolute URL/,
    ],
    [
      'a video given as an array',
      { attachment_type: 'video' },
      /"attachments" must be a single video URL, not an array, when attachment_type is video/,
    ],
    [
      'a video given twice',
      { ...videoFile, attachments: 'https://example.com/videos/other.mp4' },
      /"attachments" must be omitted when attachment is given/,
    ],
    [
      'an avi video',
      { ...videoFile, attachment: 'https://example.com/videos/clip.avi' },
      /"attachment" must be a URL of an mp4, webm or ogg video file/,
    ],
    [
      'a mov video in attachments',
      { ...videoFile, attachment: undefined, attachments: 'https://example.com/videos/clip.mov' },
      /"attachments" must be a URL of an mp4, webm or ogg video file/,
    ],
    ['a fractional frame_rate', { frame_rate: 2.5 }, /"frame_rate" must be an integer/],
    ['frame_rate 0', { frame_rate: 0 }, /"frame_rate" must be at least 1/],
    ['a negative start_time', { start_time: -1 }, /"start_time" must be at least 0/],
    ['a negative duration_time', { duration_time: -0.5 }, /"duration_time" must be at least 0/],
    ['a duration_time that is not a number', { duration_time: '10s' }, /"duration_time" must be a number/],
    [
      'events_to_annotate that is not an array',
      { events_to_annotate: 'honk' },
      /"events_to_annotate" must be an array/,
    ],
    [
      'an empty event name',
      { events_to_annotate: ['honk', ' '] },
      /"events_to_annotate\[1\]" must be a non-empty event name/,
    ],
    [
      'a repeated event',
      { events_to_annotate: ['honk', 'honk'] },
      /"events_to_annotate" must not repeat events \(repeated: honk\)/,
    ],
    ['a negative padding', { padding: -1 }, /"padding" must be at least 0/],
    ['a fractional paddingX', { paddingX: 1.5 }, /"paddingX" must be an integer/],
    [
      'base annotations with a label the task lacks',
      { base_annotations: { annotations: [{ type: 'box', label: 'plane', left: 0, top: 0, width: 1, height: 1 }] } },
      /"base_annotations.annotations\[0\].label" is "plane"/,
    ],
    [
      'base annotations of a geometry not requested',
      { base_annotations: { annotations: [{ type: 'polygon', label: 'car', vertices: [{ x: 0, y: 0 }] }] } },
      /"base_annotations.annotations\[0\].type" is "polygon", a geometry the task did not ask for/,
    ],
    ['base annotations without annotations', { base_annotations: {} }, /"base_annotations.annotations" is required/],
    [
      'a permission flag that is not boolean',
      { can_delete_base_annotations: 'no' },
      /"can_delete_base_annotations" must be a boolean/,
    ],
    [
      'a label condition naming an absent label',
      { annotation_attributes: { a: { description: 'q', choices: ['x'], conditions: { label_condition: 'plane' } } } },
      /"annotation_attributes.a.conditions.label_condition" names label "plane"/,
    ],
    ['links that are not an object', { links: ['a'] }, /"links" must be an object/],
    ['a hypothesis that is not an object', { hypothesis: [] }, /"hypothesis" must be an object/],
    ['an unknown parameter', { context_attachment: [] }, /"context_attachment" is not an allowed parameter/],
  ]);

  it('POST /_mock/tasks/{id}/complete stores a given valid video response', async () => {
    const t = makeApp();
    const task = await create(t, 'videoannotation');
    const res = await complete(t, task.task_id, validVideo());
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(validVideo());
  });

  it('POST /_mock/tasks/{id}/complete does not bind the frame count of a video file task', async () => {
    const t = makeApp();
    const task = await create(t, 'videoannotation', videoFile);
    const response = validVideo();
    response.annotations = response.annotations.slice(0, 2);
    response.events = [{ label: 'car honks', type: 'point', start: 1 }];
    expect((await complete(t, task.task_id, response)).status).toBe(200);
  });

  rejectsResponses('videoannotation', validVideo, [
    [
      'fewer frames than attachments',
      (r) => r.annotations.pop(),
      /"response.annotations" has 3 frame\(s\), but the task has 4 attachments/,
    ],
    [
      'an object changing label',
      (r) => (r.annotations[2].annotations[0].label = 'truck'),
      /"response.annotations\[2\].annotations\[0\].label" is "truck", but uuid "u1" has label "car" in frame 0/,
    ],
    [
      'an object changing geometry',
      (r) => (r.annotations[1].annotations[1] = { ...box('u2', 'car', 1) }),
      /"response.annotations\[1\].annotations\[1\].type" is "box", but uuid "u2" has type "point" in frame 0/,
    ],
    [
      'a uuid twice in one frame',
      (r) => r.annotations[0].annotations.push(box('u1', 'car', 50)),
      /"response.annotations\[0\].annotations\[2\].uuid" repeats uuid "u1" within frame 0/,
    ],
    [
      'a label the task lacks',
      (r) => {
        for (const f of r.annotations) f.annotations[0].label = 'plane';
      },
      /"response.annotations\[0\].annotations\[0\].label" is "plane", not one of the task's box labels/,
    ],
    [
      'a geometry the task did not ask for',
      (r) =>
        (r.annotations[0].annotations[0] = { uuid: 'u9', type: 'polygon', label: 'car', vertices: [{ x: 1, y: 1 }] }),
      /"response.annotations\[0\].annotations\[0\].type" is "polygon", a geometry the task did not ask for/,
    ],
    [
      'an attribute not defined',
      (r) => (r.annotations[0].annotations[0].attributes = { color: 'red' }),
      /"response.annotations\[0\].annotations\[0\].attributes.color" is not an attribute defined/,
    ],
    [
      'an event the task does not annotate',
      (r) => (r.events[0].label = 'explosion'),
      /"response.events\[0\].label" is "explosion", not one of the task's events_to_annotate/,
    ],
    [
      'an event beyond the last frame',
      (r) => (r.events[0].end = 9),
      /"response.events\[0\].end" is frame 9, beyond the response's 4 frame\(s\)/,
    ],
    [
      'a range event without end',
      (r) => delete r.events[0].end,
      /"response.events\[0\].end" is required for a range event/,
    ],
    [
      'a point event with an end',
      (r) => (r.events[1].end = 3),
      /"response.events\[1\].end" is only allowed on a range event/,
    ],
    [
      'an event ending before it starts',
      (r) => Object.assign(r.events[0], { start: 2, end: 1 }),
      /"response.events\[0\].end" must be at least start \(2\)/,
    ],
    [
      'an event of an unknown type',
      (r) => (r.events[1].type = 'moment'),
      /"response.events\[1\].type" must be one of "point", "range"/,
    ],
    [
      'a box without width',
      (r) => delete r.annotations[0].annotations[0].width,
      /"response.annotations\[0\].annotations\[0\].width" is required/,
    ],
    ['frames that are bare arrays', (r) => (r.annotations = [[]]), /"response.annotations\[0\]" must be an object/],
  ]);

  it('POST /_mock/tasks/{id}/complete synthesizes a frame per image attachment, the same objects moving', async () => {
    const t = makeApp();
    const task = await create(t, 'videoannotation');
    const res = await complete(t, task.task_id);
    expect(res.status).toBe(200);
    const frames = res.body.response.annotations;
    expect(frames).toHaveLength(4);
    const ids = (f: any) => f.annotations.map((a: any) => `${a.uuid}:${a.label}:${a.type}`);
    for (const frame of frames) expect(ids(frame)).toEqual(ids(frames[0]));
    expect(frames[1].annotations).not.toEqual(frames[0].annotations);
    expect(res.body.response.events.map((e: any) => e.label)).toEqual(['light turns green', 'car honks']);
    expectFits(res.body);
  });

  const counts: [string, Body, number][] = [
    ['duration_time × frame_rate frames', { duration_time: 2.5, frame_rate: 2 }, 5],
    ['at most 10 frames', { duration_time: 600, frame_rate: 30 }, 10],
    ['5 frames without duration_time', {}, 5],
  ];
  for (const [what, timing, expected] of counts) {
    it(`POST /_mock/tasks/{id}/complete synthesizes ${what} for a video file`, async () => {
      const t = makeApp();
      const task = await create(t, 'videoannotation', { ...videoFile, frame_rate: undefined, ...timing });
      const res = await complete(t, task.task_id);
      expect(res.body.response.annotations).toHaveLength(expected);
      expectFits(res.body);
    });
  }

  it('POST /_mock/tasks/{id}/complete synthesizes no events when the task annotates none', async () => {
    const t = makeApp();
    const task = await create(t, 'videoannotation', {
      events_to_annotate: undefined,
      geometries: { polygon: { objects_to_annotate: ['lane'], min_vertices: 5 } },
    });
    const res = await complete(t, task.task_id);
    expect(res.body.response).not.toHaveProperty('events');
    expect(res.body.response.annotations[0].annotations[0].vertices.length).toBeGreaterThanOrEqual(5);
    expectFits(res.body);
  });
});

// ---------------------------------------------------------------- videoplaybackannotation

/** A valid response for the videoplaybackannotation fixture: a cyclist over two frames and a scooter in one. */
const validPlayback = () => ({
  annotations: {
    u1: {
      label: 'cyclist',
      geometry: 'box',
      frames: [
        { key: 0, timestamp: 5, attributes: { helmet: 'yes' }, left: 1, top: 2, width: 10, height: 10 },
        { key: 2, timestamp: 6, attributes: {}, left: 3, top: 2, width: 10, height: 10 },
      ],
    },
    u2: {
      label: 'scooter',
      geometry: 'box',
      frames: [{ key: 1, timestamp: 5.5, attributes: {}, left: 50, top: 60, width: 12, height: 8 }],
    },
  },
  events: [{ label: 'near miss', type: 'point', start: 1, startTime: 5.5 }],
});

describe('POST /v1/task/videoplaybackannotation', () => {
  it('POST /v1/task/videoplaybackannotation answers 200 and stores the params as given', async () => {
    const res = await makeApp().call('POST', '/v1/task/videoplaybackannotation', {
      body: request('videoplaybackannotation'),
    });
    expect(res.status).toBe(200);
    const { callback_url: _cb, instruction: _i, metadata: _m, ...params } = request('videoplaybackannotation');
    expect(res.body.params).toEqual(params);
    expect(res.body.type).toBe('videoplaybackannotation');
  });

  it('POST /v1/task/videoplaybackannotation defaults attachment_type to video and frame_rate to 1', async () => {
    const res = await makeApp().call('POST', '/v1/task/videoplaybackannotation', {
      body: request('videoplaybackannotation', { attachment_type: undefined, frame_rate: undefined }),
    });
    expect(res.status).toBe(200);
    expect(res.body.params).toMatchObject({ attachment_type: 'video', frame_rate: 1 });
  });

  it('POST /v1/task/videoplaybackannotation with attachment_type image needs no video file', async () => {
    const t = makeApp();
    const none = await t.call('POST', '/v1/task/videoplaybackannotation', {
      body: request('videoplaybackannotation', { attachment_type: 'image', attachment: undefined }),
    });
    expect(none.status).toBe(200);
    const image = await t.call('POST', '/v1/task/videoplaybackannotation', {
      body: request('videoplaybackannotation', { attachment_type: 'image', attachment: 'https://example.com/a.jpg' }),
    });
    expect(image.status).toBe(200);
    expect(image.body.params.attachment).toBe('https://example.com/a.jpg');
  });

  it('POST /v1/task/videoplaybackannotation accepts padding, base annotations and permission flags', async () => {
    const extra = {
      padding: 4,
      paddingX: 2,
      paddingY: 0,
      base_annotations: {
        annotations: [{ type: 'box', label: 'scooter', left: 1, top: 2, width: 3, height: 4, uuid: 'b-1' }],
      },
      can_add_base_annotations: true,
      can_edit_base_annotations: false,
      can_edit_base_annotation_labels: false,
      can_delete_base_annotations: true,
    };
    const res = await makeApp().call('POST', '/v1/task/videoplaybackannotation', {
      body: request('videoplaybackannotation', extra),
    });
    expect(res.status).toBe(200);
    expect(res.body.params).toMatchObject(extra);
  });

  rejectsEach('videoplaybackannotation', [
    ['missing geometries', { geometries: undefined }, /"geometries" is required/],
    ['a missing video', { attachment: undefined }, /"attachment" is required when attachment_type is video/],
    [
      'a missing video with the default attachment_type',
      { attachment: undefined, attachment_type: undefined },
      /"attachment" is required when attachment_type is video/,
    ],
    [
      'an avi video',
      { attachment: 'https://example.com/videos/a.avi' },
      /"attachment" must be a URL of an mp4, webm or ogg video file/,
    ],
    ['an attachment without scheme', { attachment: 'videos/a.mp4' }, /"attachment" must be an absolute URL/],
    ['attachment_type audio', { attachment_type: 'audio' }, /"attachment_type" must be one of "image", "video"/],
    ['a fractional frame_rate', { frame_rate: 1.5 }, /"frame_rate" must be an integer/],
    ['frame_rate 0', { frame_rate: 0 }, /"frame_rate" must be at least 1/],
    ['a fractional start_time', { start_time: 1.5 }, /"start_time" must be an integer/],
    ['a negative start_time', { start_time: -2 }, /"start_time" must be at least 0/],
    ['a negative duration_time', { duration_time: -1 }, /"duration_time" must be at least 0/],
    ['a duration_time given as strings', { duration_time: ['10'] }, /"duration_time" must be a number/],
    ['an event that is not a string', { events_to_annotate: [1] }, /"events_to_annotate\[0\]" must be a string/],
    [
      'a repeated event',
      { events_to_annotate: ['near miss', 'near miss'] },
      /"events_to_annotate" must not repeat events/,
    ],
    ['a negative paddingY', { paddingY: -3 }, /"paddingY" must be at least 0/],
    [
      'base annotations with a label the task lacks',
      { base_annotations: { annotations: [{ type: 'box', label: 'bus', left: 0, top: 0, width: 1, height: 1 }] } },
      /"base_annotations.annotations\[0\].label" is "bus"/,
    ],
    [
      'a permission flag that is not boolean',
      { can_add_base_annotations: 1 },
      /"can_add_base_annotations" must be a boolean/,
    ],
    [
      'an attribute condition naming an absent label',
      { annotation_attributes: { a: { description: 'q', choices: ['x'], conditions: { label_condition: 'car' } } } },
      /names label "car", which is not one of the task's labels/,
    ],
    [
      'attachments (a videoannotation parameter)',
      { attachments: ['https://example.com/1.jpg'] },
      /"attachments" is not an allowed parameter/,
    ],
    ['links (not a playback parameter)', { links: {} }, /"links" is not an allowed parameter/],
  ]);

  it('POST /_mock/tasks/{id}/complete stores a given valid playback response', async () => {
    const t = makeApp();
    const task = await create(t, 'videoplaybackannotation');
    const res = await complete(t, task.task_id, validPlayback());
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(validPlayback());
  });

  rejectsResponses('videoplaybackannotation', validPlayback, [
    [
      'a label the task lacks',
      (r) => (r.annotations.u2.label = 'bus'),
      /"response.annotations.u2.label" is "bus", not one of the task's box labels \(cyclist, scooter\)/,
    ],
    [
      'a geometry the task did not ask for',
      (r) =>
        (r.annotations.u2 = {
          label: 'scooter',
          geometry: 'point',
          frames: [{ key: 0, timestamp: 5, attributes: {}, x: 1, y: 2 }],
        }),
      /"response.annotations.u2.geometry" is "point", a geometry the task did not ask for/,
    ],
    [
      'frames out of order',
      (r) => (r.annotations.u1.frames[1].key = 0),
      /"response.annotations.u1.frames\[1\].key" is 0, not after the previous frame's key 0/,
    ],
    [
      'an attribute value not offered',
      (r) => (r.annotations.u1.frames[0].attributes.helmet = 'maybe'),
      /"response.annotations.u1.frames\[0\].attributes.helmet" has value\(s\) "maybe"/,
    ],
    [
      'an event the task does not annotate',
      (r) => (r.events[0].label = 'crash'),
      /"response.events\[0\].label" is "crash"/,
    ],
    [
      'a frame without the box width',
      (r) => delete r.annotations.u1.frames[0].width,
      /"response.annotations.u1.frames\[0\].width" is required/,
    ],
    [
      'a frame without timestamp',
      (r) => delete r.annotations.u2.frames[0].timestamp,
      /"response.annotations.u2.frames\[0\].timestamp" is required/,
    ],
    [
      'an unknown geometry',
      (r) => (r.annotations.u1.geometry = 'circle'),
      /"response.annotations.u1.geometry" must be one of "box", "polygon"/,
    ],
    [
      'an object without frames',
      (r) => (r.annotations.u2.frames = []),
      /"response.annotations.u2.frames" must have at least 1 item/,
    ],
    ['annotations given as a frame list', (r) => (r.annotations = []), /"response.annotations" must be an object/],
  ]);

  it('POST /_mock/tasks/{id}/complete synthesizes uuid-keyed objects over duration_time × frame_rate', async () => {
    const t = makeApp();
    const task = await create(t, 'videoplaybackannotation');
    const res = await complete(t, task.task_id);
    expect(res.status).toBe(200);
    const objects = Object.values(res.body.response.annotations) as any[];
    expect(objects.map((o) => o.label)).toEqual(['cyclist', 'scooter']);
    for (const object of objects) {
      expect(object.geometry).toBe('box');
      expect(object.frames.map((f: any) => f.key)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(object.frames.map((f: any) => f.timestamp)).toEqual([5, 5.5, 6, 6.5, 7, 7.5]);
    }
    expect(objects[0].frames[0].attributes).toEqual({ helmet: 'yes' });
    expect(objects[1].frames[0].attributes).toEqual({});
    expect(res.body.response.events).toEqual([
      { label: 'near miss', type: 'range', start: 0, startTime: 5, end: 5, endTime: 7.5 },
    ]);
    expectFits(res.body);
  });

  it('POST /_mock/tasks/{id}/complete names line and ellipse objects by their geometry in playback', async () => {
    const t = makeApp();
    const geometries = {
      line: { objects_to_annotate: ['lane'] },
      ellipse: { objects_to_annotate: ['wheel'] },
      cuboid: { objects_to_annotate: ['truck'] },
    };
    const task = await create(t, 'videoplaybackannotation', { geometries, annotation_attributes: undefined });
    const res = await complete(t, task.task_id);
    const byLabel = Object.fromEntries(
      (Object.values(res.body.response.annotations) as any[]).map((o) => [o.label, o.geometry]),
    );
    expect(byLabel).toEqual({ lane: 'line', wheel: 'ellipse', truck: 'cuboid' });
    expectFits(res.body);
  });
});
