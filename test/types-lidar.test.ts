import { describe, expect, it } from 'vitest';
import { findTaskType } from '../src/domain/tasks/registry.js';
import type { Task } from '../src/domain/tasks/task.js';
import { labeledFrames } from '../src/domain/tasks/types/lidarannotation.js';
import { linkingFrames } from '../src/domain/tasks/types/lidarlinking.js';
import { fixture } from '../src/fixtures.js';
import { uploadText } from './file-helpers.js';
import { KEY, makeApp, STRICT, type TestApp, withResultFile } from './helpers.js';

/** The committed creation fixture of a lidar type, with top-level overrides (undefined removes a key). */
const request = (type: string, overrides: Record<string, unknown> = {}) => ({
  ...fixture<Record<string, unknown>>(`tasks/${type}.create.json`),
  ...overrides,
});

/** lidartopdown needs its project and batch (the fixture's names) to exist for the caller. */
const preparedTopDown = new WeakMap<TestApp, Set<string>>();
async function prepareTopDown(t: TestApp, key = KEY) {
  const done = preparedTopDown.get(t) ?? new Set<string>();
  preparedTopDown.set(t, done);
  if (done.has(key)) return;
  expect(
    (await t.call('POST', '/v1/projects', { key, body: { type: 'lidartopdown', name: 'lidar-topdown-maps' } })).status,
  ).toBe(200);
  expect(
    (await t.call('POST', '/v1/batches', { key, body: { project: 'lidar-topdown-maps', name: 'drive-0042' } })).status,
  ).toBe(200);
  done.add(key);
}

async function create(t: TestApp, type: string, body: Record<string, unknown>, key?: string) {
  if (type === 'lidartopdown') await prepareTopDown(t, key);
  return t.call('POST', `/v1/task/${type}`, { body, key });
}

async function created(t: TestApp, type: string, overrides: Record<string, unknown> = {}, key?: string) {
  const res = await create(t, type, request(type, overrides), key);
  if (res.status !== 200) throw new Error(`create ${type} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const complete = (t: TestApp, taskId: string, response?: unknown, key?: string) =>
  t.call('POST', `/_mock/tasks/${taskId}/complete`, { body: response === undefined ? undefined : { response }, key });

/** A completed lidarannotation task (synthesized response) to link or segment from. */
async function completedLidarTask(t: TestApp, type = 'lidarannotation', key?: string) {
  const task = await created(t, type, {}, key);
  const res = await complete(t, task.task_id, undefined, key);
  expect(res.status).toBe(200);
  return withResultFile(t, res.body);
}

/** The synthesized response fits the type's own schema and rules: what the brief demands of every type. */
function expectSelfConsistent(task: Task) {
  const def = findTaskType(task.type);
  if (!def) throw new Error(`no type ${task.type}`);
  const parsed = def.responseSchema.safeParse(task.response);
  expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
  expect(def.checkResponse(task, parsed.data)).toEqual([]);
}

type Rejection = [string, Record<string, unknown>, RegExp];

function rejects(type: string, cases: Rejection[], setup?: (t: TestApp) => Promise<Record<string, unknown>>) {
  for (const [what, overrides, message] of cases) {
    it(`POST /v1/task/${type} with ${what} answers 400 naming the field and rule`, async () => {
      const t = makeApp(STRICT);
      const base = setup ? await setup(t) : {};
      const res = await create(t, type, request(type, { ...base, ...overrides }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status_code: 400 });
      expect(res.body.error).toMatch(message);
    });
  }
}

describe('frame sampling', () => {
  it('labeledFrames follows 1, k+1, ..., floor((n-1)/k)*k+1 and the n-th', () => {
    expect(labeledFrames(20, 4)).toEqual([1, 5, 9, 13, 17, 20]);
    expect(labeledFrames(6, 2)).toEqual([1, 3, 5, 6]);
    expect(labeledFrames(9, 4)).toEqual([1, 5, 9]);
    expect(labeledFrames(5, 1)).toEqual([1, 2, 3, 4, 5]);
    expect(labeledFrames(3, 10)).toEqual([1, 3]);
    expect(labeledFrames(1, 3)).toEqual([1]);
    expect(labeledFrames(0, 3)).toEqual([]);
  });

  it('linkingFrames applies the linking rate to the frames the original task labeled (the interface example)', () => {
    expect(linkingFrames(20, 4, 2)).toEqual([1, 9, 17, 20]);
    expect(linkingFrames(20, 4, 1)).toEqual([1, 5, 9, 13, 17, 20]);
    expect(linkingFrames(20, 1, 4)).toEqual(labeledFrames(20, 4));
    expect(linkingFrames(20, 4, 3)).toEqual([1, 13, 20]);
  });
});

describe('POST /v1/task/lidarannotation', () => {
  it('POST /v1/task/lidarannotation answers 200 with the lidar params stored', async () => {
    const t = makeApp();
    const body = request('lidarannotation');
    const res = await create(t, 'lidarannotation', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'lidarannotation',
      status: 'pending',
      callback_url: 'https://example.com/callback',
      metadata: { drive: 'drive-0042' },
    });
    const { callback_url: _c, instruction: _i, metadata: _m, ...params } = body;
    expect(res.body.params).toEqual(params);
  });

  rejects('lidarannotation', [
    ['no attachments', { attachments: undefined }, /"attachments" is required/],
    ['empty attachments', { attachments: [] }, /"attachments" must have at least 1 item/],
    ['a frame that is not a URL', { attachments: ['frame-000.json'] }, /"attachments\[0\]" must be an absolute URL/],
    ['no attachment_type', { attachment_type: undefined }, /"attachment_type" is required/],
    ['attachment_type pcd', { attachment_type: 'pcd' }, /"attachment_type" must be one of "json", "protobuf"/],
    ['no labels', { labels: undefined }, /"labels" is required/],
    ['empty labels', { labels: [] }, /"labels" must have at least 1 item/],
    ['51 labels', { labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }, /"labels" must have at most 50 item/],
    [
      'a repeated label',
      { labels: ['car', { choice: 'vehicle', subchoices: ['car'] }] },
      /"labels" must not repeat labels \(repeated: car\)/,
    ],
    ['a label object without choice', { labels: [{ subchoices: ['car'] }] }, /"labels\[0\].choice" is required/],
    ['labeling_sample_rate 0', { labeling_sample_rate: 0 }, /"labeling_sample_rate" must be at least 1/],
    ['labeling_sample_rate 1.5', { labeling_sample_rate: 1.5 }, /"labeling_sample_rate" must be an integer/],
    ['max_distance_meters -5', { max_distance_meters: -5 }, /"max_distance_meters" must be greater than 0/],
    ['meters_per_unit "1"', { meters_per_unit: '1' }, /"meters_per_unit" must be a number/],
    ['frames_per_second 2.5', { frames_per_second: 2.5 }, /"frames_per_second" must be an integer/],
    ['polygons_enabled "yes"', { polygons_enabled: 'yes' }, /"polygons_enabled" must be a boolean/],
    ['an empty polygons label', { polygons_labels: [''] }, /"polygons_labels\[0\]" must be a non-empty name/],
    [
      'an attribute conditioned on an unknown label',
      {
        annotation_attributes: {
          moving: { description: 'm', choices: ['y'], conditions: { label_condition: 'boat' } },
        },
      },
      /"annotation_attributes.moving.conditions.label_condition" names label "boat"/,
    ],
    ['an unknown parameter', { geometries: {} }, /"geometries" is not an allowed parameter/],
  ]);
});

const cuboid = (uuid: string, label: string, extra: Record<string, unknown> = {}) => ({
  uuid,
  label,
  attributes: {},
  position: { x: 1, y: 2, z: 0.5 },
  dimensions: { x: 4, y: 2, z: 1.5 },
  yaw: 0.3,
  ...extra,
});

describe('completing a lidarannotation task', () => {
  it('POST /_mock/tasks/{id}/complete stores a given response of cuboids on labeled frames', async () => {
    const t = makeApp();
    const task = await created(t, 'lidarannotation');
    const response = {
      annotations: [
        {
          frame_index: 1,
          cuboids: [cuboid('a', 'car', { attributes: { occlusion: '25%', moving: 'yes' } }), cuboid('b', 'pedestrian')],
        },
        {
          frame_index: 3,
          cuboids: [cuboid('a', 'car')],
          polygons: [
            {
              uuid: 'p',
              label: 'parking_lot',
              attributes: {},
              vertices: [
                { x: 0, y: 0, z: 0 },
                { x: 1, y: 0, z: 0 },
                { x: 1, y: 1, z: 0 },
              ],
            },
          ],
        },
        { frame_index: 6, cuboids: [] },
      ],
    };
    const res = await complete(t, task.task_id, response);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    // Delivered as the real service does: a link to the file (the callback docs; scale_lidar_io's
    // LidarAnnotationTask.get_annotations reads response.annotations.url with a plain GET).
    expect(res.body.response).toEqual({
      annotations: { url: expect.stringMatching(/^http:\/\/localhost\/_mock\/results\//) },
    });
    expect((await withResultFile(t, res.body)).response).toEqual(response);
  });

  it('the results file answers only with its secret; a redo drops it', async () => {
    const t = makeApp();
    const done = (await complete(t, (await created(t, 'lidarannotation')).task_id)).body;
    const path = new URL(done.response.annotations.url).pathname;
    const forged = path.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
    expect((await t.app.request(forged)).status).toBe(404);
    expect((await t.app.request(path)).status).toBe(200);
    await t.call('POST', `/_mock/tasks/${done.task_id}/redo`);
    expect((await t.app.request(path)).status).toBe(404);
  });

  it("a shard's results link names it (--shard-id), and another shard answers 404 naming both", async () => {
    const t = makeApp({ config: { shardId: 'shard-1' } });
    const done = (await complete(t, (await created(t, 'lidarannotation')).task_id)).body;
    const url = new URL(done.response.annotations.url);
    expect(url.searchParams.get('shard')).toBe('shard-1');
    expect((await t.app.request(`${url.pathname}${url.search}`)).status).toBe(200);
    const astray = await t.app.request(`${url.pathname}?shard=shard-2`);
    expect(astray.status).toBe(404);
    expect(((await astray.json()) as { error: string }).error).toBe(
      `Results file "${done.task_id}" not found here: its link names shard "shard-2", and this server is shard ` +
        '"shard-1". Route ?shard= to that shard.',
    );
    const lone = makeApp();
    const unsharded = await lone.app.request(`${url.pathname}?shard=shard-1`);
    expect(((await unsharded.json()) as { error: string }).error).toContain(
      'and this server is no shard (started without --shard-id)',
    );
  });

  const misfits: [string, unknown[], RegExp, Record<string, unknown>?][] = [
    [
      'a frame the sample rate skips',
      [{ frame_index: 2, cuboids: [] }],
      /"response.annotations\[0\].frame_index" is 2, not a labeled frame of this task \(1, 3, 5, 6\)/,
    ],
    [
      'a frame twice',
      [
        { frame_index: 1, cuboids: [] },
        { frame_index: 1, cuboids: [] },
      ],
      /"response.annotations\[1\].frame_index" repeats frame 1/,
    ],
    [
      'a navigation-only label',
      [{ frame_index: 1, cuboids: [cuboid('a', 'vehicle')] }],
      /"response.annotations\[0\].cuboids\[0\].label" is "vehicle", not one of the task's leaf labels/,
    ],
    [
      'an object changing label between frames',
      [
        { frame_index: 1, cuboids: [cuboid('a', 'car')] },
        { frame_index: 3, cuboids: [cuboid('a', 'bus')] },
      ],
      /"response.annotations\[1\].cuboids\[0\].label" is "bus", but uuid "a" is "car" in another frame/,
    ],
    [
      'one uuid twice in a frame',
      [{ frame_index: 1, cuboids: [cuboid('a', 'car'), cuboid('a', 'car')] }],
      /"response.annotations\[0\].cuboids\[1\].uuid" repeats uuid "a" within one frame/,
    ],
    [
      'an attribute value not offered',
      [{ frame_index: 1, cuboids: [cuboid('a', 'car', { attributes: { occlusion: '90%' } })] }],
      /"response.annotations\[0\].cuboids\[0\].attributes.occlusion" has value\(s\) "90%"/,
    ],
    [
      'a polygon label outside polygons_labels',
      [
        {
          frame_index: 1,
          cuboids: [],
          polygons: [
            {
              uuid: 'p',
              label: 'car',
              vertices: [
                { x: 0, y: 0, z: 0 },
                { x: 1, y: 0, z: 0 },
                { x: 1, y: 1, z: 0 },
              ],
            },
          ],
        },
      ],
      /"response.annotations\[0\].polygons\[0\].label" is "car", not one of the task's polygons_labels \(parking_lot\)/,
    ],
    [
      'polygons on a task without polygons_enabled',
      [
        {
          frame_index: 1,
          cuboids: [],
          polygons: [
            {
              uuid: 'p',
              label: 'parking_lot',
              vertices: [
                { x: 0, y: 0, z: 0 },
                { x: 1, y: 0, z: 0 },
                { x: 1, y: 1, z: 0 },
              ],
            },
          ],
        },
      ],
      /"response.annotations\[0\].polygons" must be absent or empty: polygons_enabled is not true/,
      { polygons_enabled: undefined },
    ],
    [
      'a zero dimension',
      [{ frame_index: 1, cuboids: [cuboid('a', 'car', { dimensions: { x: 0, y: 1, z: 1 } })] }],
      /"response.annotations\[0\].cuboids\[0\].dimensions.x" must be greater than 0/,
    ],
    [
      'a cuboid without yaw',
      [{ frame_index: 1, cuboids: [{ ...cuboid('a', 'car'), yaw: undefined }] }],
      /"response.annotations\[0\].cuboids\[0\].yaw" is required/,
    ],
  ];
  for (const [what, annotations, message, overrides] of misfits) {
    it(`POST /_mock/tasks/{id}/complete with ${what} answers 400 and keeps the task pending`, async () => {
      const t = makeApp();
      const task = await created(t, 'lidarannotation', overrides);
      const res = await complete(t, task.task_id, { annotations });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await t.call('GET', `/v1/task/${task.task_id}`)).body.status).toBe('pending');
    });
  }

  it('POST /_mock/tasks/{id}/complete synthesizes cuboids on the labeled frames with stable uuids', async () => {
    const t = makeApp();
    const done = await completedLidarTask(t);
    expectSelfConsistent(done);
    const frames = done.response.annotations;
    expect(frames.map((f: { frame_index: number }) => f.frame_index)).toEqual([1, 3, 5, 6]);
    const tracks = frames.map((f: { cuboids: { uuid: string; label: string }[] }) =>
      f.cuboids.map((c) => `${c.uuid}:${c.label}`),
    );
    expect(tracks[0]).toEqual(['car', 'truck', 'bus'].map((label, i) => `${frames[0].cuboids[i].uuid}:${label}`));
    for (const frame of tracks) expect(frame).toEqual(tracks[0]);
    expect(frames[0].cuboids[0].position).not.toEqual(frames[3].cuboids[0].position);
    expect(frames[0].polygons.map((p: { label: string }) => p.label)).toEqual(['parking_lot']);
    const again = await completedLidarTask(makeApp());
    expect(again.response).toEqual(done.response);
  });

  it('synthesized cuboids stay within max_distance_meters and omit polygons when not enabled', async () => {
    const t = makeApp();
    const task = await created(t, 'lidarannotation', {
      max_distance_meters: 10,
      polygons_enabled: undefined,
      labeling_sample_rate: undefined,
    });
    const done = await withResultFile(t, (await complete(t, task.task_id)).body);
    expectSelfConsistent(done);
    expect(done.response.annotations).toHaveLength(6);
    for (const frame of done.response.annotations) {
      expect(frame).not.toHaveProperty('polygons');
      for (const c of frame.cuboids) expect(Math.hypot(c.position.x, c.position.y)).toBeLessThanOrEqual(10);
    }
  });
});

describe('POST /v1/task/lidarsegmentation', () => {
  it('POST /v1/task/lidarsegmentation answers 200 standalone with the params stored', async () => {
    const t = makeApp();
    const body = request('lidarsegmentation');
    const res = await create(t, 'lidarsegmentation', body);
    expect(res.status).toBe(200);
    expect(res.body.params).toEqual({
      attachments: body.attachments,
      attachment_type: 'protobuf',
      labels: body.labels,
    });
  });

  it('POST /v1/task/lidarsegmentation accepts a completed lidarannotation task as lidar_task', async () => {
    const t = makeApp();
    const lidar = await completedLidarTask(t);
    const res = await create(t, 'lidarsegmentation', request('lidarsegmentation', { lidar_task: lidar.task_id }));
    expect(res.status).toBe(200);
    expect(res.body.params.lidar_task).toBe(lidar.task_id);
  });

  it('POST /v1/task/lidarsegmentation with a pending, foreign or non-lidar lidar_task answers 400', async () => {
    const t = makeApp();
    const pending = await created(t, 'lidarannotation');
    const foreign = await completedLidarTask(t, 'lidarannotation', 'test_someone_else');
    const segmentation = await completedLidarTask(t, 'lidarsegmentation');
    const cases: [string, RegExp][] = [
      [
        pending.task_id,
        new RegExp(
          `"lidar_task" must name a completed lidarannotation task of this account; task ${pending.task_id} is pending`,
        ),
      ],
      [
        foreign.task_id,
        new RegExp(
          `"lidar_task" must name a completed lidarannotation task of this account; ` +
            `no task "${foreign.task_id}" exists`,
        ),
      ],
      [segmentation.task_id, new RegExp(`"lidar_task" .*task ${segmentation.task_id} has type lidarsegmentation`)],
    ];
    for (const [id, message] of cases) {
      const res = await create(t, 'lidarsegmentation', request('lidarsegmentation', { lidar_task: id }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });

  rejects('lidarsegmentation', [
    ['no attachments', { attachments: undefined }, /"attachments" is required/],
    ['no attachment_type', { attachment_type: undefined }, /"attachment_type" is required/],
    ['attachment_type las', { attachment_type: 'las' }, /"attachment_type" must be one of "json", "protobuf"/],
    ['no labels', { labels: undefined }, /"labels" is required/],
    ['51 labels', { labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }, /"labels" must have at most 50 item/],
    [
      'instance_label "yes"',
      { labels: [{ choice: 'car', instance_label: 'yes' }] },
      /"labels\[0\].instance_label" must be a boolean/,
    ],
    ['an empty lidar_task', { lidar_task: '' }, /"lidar_task" must have at least 1 character/],
    [
      'a parameter of lidarannotation',
      { labeling_sample_rate: 2 },
      /"labeling_sample_rate" is not an allowed parameter/,
    ],
  ]);
});

describe('completing a lidarsegmentation task', () => {
  const mapping = ['car', 'pedestrian', 'road'];
  it('POST /_mock/tasks/{id}/complete stores a given per-point classification', async () => {
    const t = makeApp();
    const task = await created(t, 'lidarsegmentation');
    const response = {
      label_mapping: mapping,
      annotations: [{ frame_index: 2, labels: [0, 0, 2, 1], instance_ids: [1, 2, 0, 3] }],
    };
    const res = await complete(t, task.task_id, response);
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(response);
  });

  const misfits: [string, Record<string, unknown>, RegExp][] = [
    [
      'a navigation-only label in label_mapping',
      { label_mapping: ['vehicle'], annotations: [] },
      /"response.label_mapping\[0\]" is "vehicle", not one of the task's leaf labels/,
    ],
    [
      'a label twice in label_mapping',
      { label_mapping: ['car', 'car'], annotations: [] },
      /"response.label_mapping\[1\]" repeats label "car"/,
    ],
    [
      'a class index outside label_mapping',
      { label_mapping: mapping, annotations: [{ frame_index: 1, labels: [0, 3] }] },
      /"response.annotations\[0\].labels\[1\]" is 3, not an index of label_mapping \(0 to 2\)/,
    ],
    [
      'an instance id on a non-instance label',
      { label_mapping: mapping, annotations: [{ frame_index: 1, labels: [2], instance_ids: [4] }] },
      /"response.annotations\[0\].instance_ids\[0\]" must be 0: the point's label "road" is not an instance label/,
    ],
    [
      'a frame beyond the attachments',
      { label_mapping: mapping, annotations: [{ frame_index: 4, labels: [] }] },
      /"response.annotations\[0\].frame_index" is 4, beyond the task's 3 frame/,
    ],
    [
      'instance_ids of another length',
      { label_mapping: mapping, annotations: [{ frame_index: 1, labels: [0, 1], instance_ids: [1] }] },
      /"response.annotations\[0\].instance_ids" must have one entry per point \(2, as labels\)/,
    ],
    ['no label_mapping', { annotations: [] }, /"response.label_mapping" is required/],
  ];
  for (const [what, response, message] of misfits) {
    it(`POST /_mock/tasks/{id}/complete with ${what} answers 400`, async () => {
      const t = makeApp();
      const task = await created(t, 'lidarsegmentation');
      const res = await complete(t, task.task_id, response);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /_mock/tasks/{id}/complete synthesizes a class for the points of every frame', async () => {
    const t = makeApp();
    const done = await completedLidarTask(t, 'lidarsegmentation');
    expectSelfConsistent(done);
    expect(done.response.label_mapping).toEqual(['car', 'truck', 'pedestrian', 'road', 'vegetation']);
    expect(done.response.annotations.map((f: { frame_index: number }) => f.frame_index)).toEqual([1, 2, 3]);
    for (const frame of done.response.annotations) expect(frame.instance_ids).toHaveLength(frame.labels.length);
  });
});

describe('POST /v1/task/lidartopdown', () => {
  it('POST /v1/task/lidartopdown answers 200 for a lidar task, project and batch on the task', async () => {
    const t = makeApp();
    const body = request('lidartopdown');
    const res = await create(t, 'lidartopdown', body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      project: 'lidar-topdown-maps',
      batch: 'drive-0042',
      callback_url: 'https://example.com/callback',
    });
    const { project: _p, batch: _b, callback: _c, instruction: _i, metadata: _m, ...params } = body;
    expect(res.body.params).toEqual(params);
  });

  it('POST /v1/task/lidartopdown takes the project from the batch when only the batch is given', async () => {
    const t = makeApp();
    const res = await create(t, 'lidartopdown', request('lidartopdown', { project: undefined }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ project: 'lidar-topdown-maps', batch: 'drive-0042' });
  });

  it('POST /v1/task/lidartopdown answers 200 for an aerial task, region_of_interest_2d, prior lidar task', async () => {
    const t = makeApp();
    const lidar = await completedLidarTask(t);
    const tile = await uploadText(t, 'png bytes', {}, KEY, 'tile-3.png');
    const aerial = {
      attachments: undefined,
      region_of_interest_3d: undefined,
      attachment: [
        'https://example.com/aerial/tile-1.png',
        'https://example.com/aerial/tile-2.JPG?v=2',
        tile.attachment_url,
      ],
      region_of_interest_2d: { top_left: { lon: 13.4, lat: 52.5 } },
      lidar_task: lidar.task_id,
      disable_cuboid_projection: true,
      taxonomy_srn: '',
      base_annotations: {
        annotations: [
          { type: 'point', label: 'traffic_light_pole', x: 1, y: 2 },
          {
            type: 'line',
            label: 'stop_line',
            vertices: [
              { x: 0, y: 0 },
              { x: 5, y: 0 },
            ],
          },
        ],
      },
      can_edit_base_annotations: false,
    };
    const res = await create(t, 'lidartopdown', request('lidartopdown', aerial));
    expect(res.status).toBe(200);
    expect(res.body.params).toMatchObject({
      attachment: aerial.attachment,
      lidar_task: lidar.task_id,
      region_of_interest_2d: aerial.region_of_interest_2d,
    });
  });

  it('POST /v1/task/lidartopdown with a pending lidar_task answers 400 naming lidar_task', async () => {
    const t = makeApp();
    const pending = await created(t, 'lidarannotation');
    const res = await create(t, 'lidartopdown', request('lidartopdown', { lidar_task: pending.task_id }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(
      /"lidar_task" must name a completed lidarannotation task of this account; task .* is pending/,
    );
  });

  const aerial = {
    attachments: undefined,
    region_of_interest_3d: undefined,
    attachment: ['https://example.com/aerial.png'],
  };
  rejects('lidartopdown', [
    ['no batch', { batch: undefined }, /"batch" is required/],
    [
      'neither project nor batch',
      { batch: undefined, project: undefined },
      /"project" is required; "batch" is required/,
    ],
    [
      'neither attachment nor attachments',
      { attachments: undefined },
      /"attachment" or attachments is required: give exactly one/,
    ],
    [
      'both attachment and attachments',
      { attachment: ['https://example.com/aerial.png'] },
      /"attachment" cannot be combined with attachments/,
    ],
    [
      'lidar frames without region_of_interest_3d',
      { region_of_interest_3d: undefined },
      /"region_of_interest_3d" is required for a lidar task \(attachments given\)/,
    ],
    [
      'an aerial attachment that is not png or jpg',
      { ...aerial, attachment: ['https://example.com/aerial.tiff'] },
      /"attachment\[0\]" must be an absolute URL of a png or jpg image/,
    ],
    ['no geometries', { geometries: undefined }, /"geometries" is required/],
    ['empty geometries', { geometries: {} }, /"geometries" must name at least one geometry \(polygon, line or point\)/],
    [
      'a box geometry',
      { geometries: { box: { objects_to_annotate: ['car'] }, point: { objects_to_annotate: ['pole'] } } },
      /"geometries.box" is not available in a top-down view \(only polygon, line and point\)/,
    ],
    [
      'a cuboid geometry',
      { geometries: { cuboid: { objects_to_annotate: ['car'] }, point: { objects_to_annotate: ['pole'] } } },
      /"geometries.cuboid" is not available in a top-down view/,
    ],
    [
      'an ellipse geometry',
      { geometries: { ellipse: { objects_to_annotate: ['tree'] }, point: { objects_to_annotate: ['pole'] } } },
      /"geometries.ellipse" is not available in a top-down view/,
    ],
    [
      'an unknown geometry',
      { geometries: { rectangle: { objects_to_annotate: ['a'] } } },
      /"geometries.rectangle" is not an allowed parameter/,
    ],
    [
      'line max_vertices below min_vertices',
      { geometries: { line: { objects_to_annotate: ['lane'], min_vertices: 3, max_vertices: 2 } } },
      /"geometries.line.max_vertices" must be at least min_vertices \(3\)/,
    ],
    [
      'a directed line that is a polygon label',
      { directed_line: ['lane_boundary', 'crosswalk'] },
      /"directed_line\[1\]" names "crosswalk", which is not a line label \(line labels: lane_boundary, stop_line\)/,
    ],
    [
      'a directed line without line geometry',
      { geometries: { point: { objects_to_annotate: ['pole'] } }, annotation_attributes: undefined },
      /"directed_line\[0\]" names "lane_boundary", which is not a line label \(the task has no line geometry\)/,
    ],
    ['deviceHeight 1.5', { deviceHeight: 1.5 }, /"deviceHeight" must be an integer/],
    ['groups as a string', { groups: 'road_markings' }, /"groups" must be an array/],
    ['rules as an array', { rules: [] }, /"rules" must be an object/],
    [
      'disable_cuboid_projection "no"',
      { disable_cuboid_projection: 'no' },
      /"disable_cuboid_projection" must be a boolean/,
    ],
    ['taxonomy_srn 5', { taxonomy_srn: 5 }, /"taxonomy_srn" must be a string/],
    [
      'a base annotation box',
      {
        base_annotations: { annotations: [{ type: 'box', label: 'crosswalk', left: 0, top: 0, width: 1, height: 1 }] },
      },
      /"base_annotations.annotations\[0\].type" must be one of/,
    ],
    [
      'a base annotation with a foreign label',
      { base_annotations: { annotations: [{ type: 'point', label: 'car', x: 1, y: 1 }] } },
      /"base_annotations.annotations\[0\].label" is "car", not one of the task's point labels/,
    ],
    [
      'an attribute conditioned on an unknown label',
      { annotation_attributes: { c: { description: 'c', choices: ['a'], conditions: { label_condition: 'car' } } } },
      /"annotation_attributes.c.conditions.label_condition" names label "car"/,
    ],
    [
      'attachment_type (not a top-down parameter)',
      { attachment_type: 'json' },
      /"attachment_type" is not an allowed parameter/,
    ],
  ]);
});

describe('completing a lidartopdown task', () => {
  it('POST /_mock/tasks/{id}/complete stores a given response of polygons, lines and points', async () => {
    const t = makeApp();
    const task = await created(t, 'lidartopdown');
    const response = {
      annotations: [
        {
          type: 'polygon',
          uuid: 'a',
          label: 'crosswalk',
          attributes: { marking_color: 'white' },
          vertices: [
            { x: 0, y: 0 },
            { x: 4, y: 0 },
            { x: 4, y: 4 },
            { x: 0, y: 4 },
          ],
        },
        {
          type: 'line',
          uuid: 'b',
          label: 'lane_boundary',
          attributes: {},
          vertices: [
            { x: 0, y: 0 },
            { x: 0, y: 40 },
          ],
        },
        { type: 'point', uuid: 'c', label: 'traffic_light_pole', attributes: {}, x: 3, y: 7 },
      ],
    };
    const res = await complete(t, task.task_id, response);
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(response);
  });

  const misfits: [string, Record<string, unknown>, RegExp][] = [
    [
      'a box',
      { type: 'box', uuid: 'a', label: 'crosswalk', left: 0, top: 0, width: 1, height: 1 },
      /"response.annotations\[0\].type" must be one of "polygon", "line", "ellipse", "point"/,
    ],
    [
      'an ellipse',
      { type: 'ellipse', uuid: 'a', label: 'crosswalk', vertices: [{ x: 0, y: 0 }] },
      /"response.annotations\[0\].type" is "ellipse", a geometry the task did not ask for/,
    ],
    [
      'a line with a polygon label',
      { type: 'line', uuid: 'a', label: 'crosswalk', vertices: [{ x: 0, y: 0 }] },
      /"response.annotations\[0\].label" is "crosswalk", not one of the task's line labels/,
    ],
  ];
  for (const [what, annotation, message] of misfits) {
    it(`POST /_mock/tasks/{id}/complete with ${what} answers 400`, async () => {
      const t = makeApp();
      const task = await created(t, 'lidartopdown');
      const res = await complete(t, task.task_id, { annotations: [annotation] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /_mock/tasks/{id}/complete synthesizes polygons, typed lines and points only', async () => {
    const t = makeApp();
    const done = await completedLidarTask(t, 'lidartopdown');
    expectSelfConsistent(done);
    const byType = (type: string) =>
      done.response.annotations.filter((a: { type: string }) => a.type === type).map((a: { label: string }) => a.label);
    expect(byType('polygon')).toEqual(['crosswalk', 'parking_lot']);
    expect(byType('line')).toEqual(['lane_boundary', 'stop_line']);
    expect(byType('point')).toEqual(['traffic_light_pole']);
    expect(done.response.annotations).toHaveLength(5);
  });
});

describe('POST /v1/task/lidarlinking', () => {
  /** lidar_task of the fixture: a completed lidarannotation task of the caller. */
  const withLidarTask = async (t: TestApp) => ({ lidar_task: (await completedLidarTask(t)).task_id });

  it('POST /v1/task/lidarlinking keeps sample rate, geometries, kind, lidar task, default geometry', async () => {
    const t = makeApp();
    const lidar = await completedLidarTask(t);
    const res = await create(t, 'lidarlinking', request('lidarlinking', { lidar_task: lidar.task_id }));
    expect(res.status).toBe(200);
    expect(res.body.instruction).toMatch(/projected box/);
    expect(res.body.params).toMatchObject({
      lidar_task: lidar.task_id,
      annotation_type: 'imageannotation',
      labeling_sample_rate: 2,
      default_geometry: 'cuboid',
      geometries: request('lidarlinking').geometries,
      event_camera_ids: [{ event: 'lane_change', camera_ids: [0] }],
      layers: [{ url: 'https://example.com/lidar/drive-0042/layers-camera-0.json', camera_id: 0 }],
    });
  });

  it('POST /v1/task/lidarlinking accepts a completed lidarsegmentation task and a legacy annotation_type', async () => {
    const t = makeApp();
    const lidar = await completedLidarTask(t, 'lidarsegmentation');
    const body = request('lidarlinking', {
      lidar_task: lidar.task_id,
      annotation_type: 'annotation',
      geometries: undefined,
      default_geometry: undefined,
      additional_labels: ['sign'],
      skip_labels: ['road'],
      can_edit_annotations: false,
    });
    const res = await create(t, 'lidarlinking', body);
    expect(res.status).toBe(200);
    expect(res.body.params).toMatchObject({
      annotation_type: 'annotation',
      additional_labels: ['sign'],
      skip_labels: ['road'],
    });
  });

  it('POST /v1/task/lidarlinking with a pending, absent, foreign or non-lidar lidar_task: 400 naming it', async () => {
    const t = makeApp();
    const pending = await created(t, 'lidarannotation');
    const foreign = await completedLidarTask(t, 'lidarannotation', 'test_someone_else');
    const topdown = await completedLidarTask(t, 'lidartopdown');
    const cases: [string, RegExp][] = [
      [pending.task_id, /is pending/],
      [foreign.task_id, /no task ".*" exists/],
      ['000000000000000000000fff', /no task "000000000000000000000fff" exists/],
      [topdown.task_id, /has type lidartopdown/],
    ];
    for (const [id, reason] of cases) {
      const res = await create(t, 'lidarlinking', request('lidarlinking', { lidar_task: id }));
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /"lidar_task" must name a completed lidarannotation or lidarsegmentation task of this account/,
      );
      expect(res.body.error).toMatch(reason);
    }
  });

  rejects(
    'lidarlinking',
    [
      ['no lidar_task', { lidar_task: undefined }, /"lidar_task" is required/],
      ['no annotation_type', { annotation_type: undefined }, /"annotation_type" is required/],
      [
        'annotation_type boxannotation',
        { annotation_type: 'boxannotation' },
        /"annotation_type" must be one of "imageannotation", "annotation", "cuboidannotation", "polygonannotation"/,
      ],
      ['no instruction', { instruction: undefined }, /"instruction" is required/],
      ['an empty instruction', { instruction: ' ' }, /"instruction" must not be empty/],
      [
        'imageannotation without geometries',
        { geometries: undefined },
        /"geometries" is required when annotation_type is imageannotation/,
      ],
      [
        'imageannotation without default_geometry',
        { default_geometry: undefined },
        /"default_geometry" is required when annotation_type is imageannotation/,
      ],
      [
        'imageannotation with additional_labels',
        { additional_labels: ['sign'] },
        /"additional_labels" is not allowed when annotation_type is imageannotation \(use geometries\)/,
      ],
      [
        'default_geometry ellipse',
        { default_geometry: 'ellipse' },
        /"default_geometry" must be one of "box", "cuboid", "polygon"/,
      ],
      [
        'a default_geometry the geometries lack',
        { default_geometry: 'polygon' },
        /"default_geometry" is "polygon", a geometry that geometries does not offer/,
      ],
      [
        'a skip label the lidar task does not have',
        { skip_labels: ['pedestrian', 'boat'] },
        /"skip_labels\[1\]" names "boat", which is not a label of lidar task/,
      ],
      [
        'can_edit_annotation_positions without can_edit_annotations',
        { can_edit_annotations: false, can_edit_annotation_positions: true },
        /"can_edit_annotation_positions" requires can_edit_annotations true/,
      ],
      [
        'can_delete_annotations without can_edit_annotations',
        { can_edit_annotations: false, can_delete_annotations: true },
        /"can_delete_annotations" requires can_edit_annotations true/,
      ],
      ['can_add_annotations "no"', { can_add_annotations: 'no' }, /"can_add_annotations" must be a boolean/],
      [
        'an event camera entry for an event not annotated',
        { event_camera_ids: [{ event: 'overtake', camera_ids: [0] }] },
        /"event_camera_ids\[0\].event" names "overtake", which must be in events_to_annotate \(lane_change\)/,
      ],
      [
        'event cameras without events_to_annotate',
        { events_to_annotate: undefined },
        /"event_camera_ids\[0\].event" names "lane_change", which must be in events_to_annotate \(not given\)/,
      ],
      [
        'an event camera outside camera_ids',
        { event_camera_ids: [{ event: 'lane_change', camera_ids: [0, 5] }] },
        /"event_camera_ids\[0\].camera_ids" names camera\(s\) 5, which must be in camera_ids/,
      ],
      [
        'an event camera entry without event',
        { event_camera_ids: [{ camera_ids: [0] }] },
        /"event_camera_ids\[0\].event" is required/,
      ],
      ['a fractional camera id', { camera_ids: [0, 1.5] }, /"camera_ids\[1\]" must be an integer/],
      ['empty camera_ids', { camera_ids: [] }, /"camera_ids" must have at least 1 item/],
      ['a layer without url', { layers: [{ camera_id: 0 }] }, /"layers\[0\].url" is required/],
      [
        'a layer without camera_id',
        { layers: [{ url: 'https://example.com/l.json' }] },
        /"layers\[0\].camera_id" is required/,
      ],
      ['labeling_sample_rate 0', { labeling_sample_rate: 0 }, /"labeling_sample_rate" must be at least 1/],
      ['negative paddingX', { paddingX: -1 }, /"paddingX" must be at least 0/],
      [
        'an attribute conditioned on an unknown label',
        { annotation_attributes: { c: { description: 'c', choices: ['a'], conditions: { label_condition: 'boat' } } } },
        /"annotation_attributes.c.conditions.label_condition" names label "boat"/,
      ],
      [
        'an unknown parameter',
        { attachments: ['https://example.com/a.json'] },
        /"attachments" is not an allowed parameter/,
      ],
    ],
    withLidarTask,
  );

  it("POST /v1/task/lidarlinking accepts attribute conditions on the lidar task's labels", async () => {
    const t = makeApp();
    const body = request('lidarlinking', {
      ...(await withLidarTask(t)),
      annotation_attributes: {
        walking: { description: 'w', choices: ['y', 'n'], conditions: { label_condition: 'pedestrian' } },
      },
    });
    expect((await create(t, 'lidarlinking', body)).status).toBe(200);
  });
});

describe('completing a lidarlinking task', () => {
  const box = (extra: Record<string, unknown> = {}) => ({
    type: 'box',
    uuid: 'u1',
    label: 'car',
    attributes: {},
    left: 1,
    top: 2,
    width: 30,
    height: 20,
    frame_index: 1,
    camera_id: 0,
    ...extra,
  });

  async function linkingTask(t: TestApp, overrides: Record<string, unknown> = {}) {
    return created(t, 'lidarlinking', { lidar_task: (await completedLidarTask(t)).task_id, ...overrides });
  }

  it('POST /_mock/tasks/{id}/complete stores given projections, with lidar task attributes when copied', async () => {
    const t = makeApp();
    const task = await linkingTask(t);
    const response = {
      annotations: [box({ attributes: { occlusion: '25%' } }), box({ camera_id: 2, frame_index: 9 })],
    };
    const res = await complete(t, task.task_id, response);
    expect(res.status).toBe(200);
    expect(res.body.response).toEqual(response);
  });

  const misfits: [string, Record<string, unknown>[], RegExp, Record<string, unknown>?][] = [
    [
      'a camera outside camera_ids',
      [box({ camera_id: 7 })],
      /"response.annotations\[0\].camera_id" is 7, not one of the task's camera_ids \(0, 1, 2\)/,
    ],
    [
      'a skipped label',
      [box({ label: 'pedestrian' })],
      /"response.annotations\[0\].label" is "pedestrian", a label this task skips/,
    ],
    [
      'a label outside the geometries',
      [box({ label: 'boat' })],
      /"response.annotations\[0\].label" is "boat", not one of the task's box labels/,
    ],
    [
      'a geometry the task does not draw',
      [box({ type: 'point', x: 1, y: 1 })],
      /"response.annotations\[0\].type" is "point", a geometry the task did not ask for/,
    ],
    [
      'one uuid twice on a frame and camera',
      [box(), box()],
      /"response.annotations\[1\].uuid" repeats uuid "u1" on frame 1, camera 0/,
    ],
    ['no camera_id', [box({ camera_id: undefined })], /"response.annotations\[0\].camera_id" is required/],
    [
      'a shape other than the legacy kind',
      [box()],
      /"response.annotations\[0\].type" is "box", but annotation_type cuboidannotation draws cuboid shapes/,
      { annotation_type: 'cuboidannotation', geometries: undefined, default_geometry: undefined },
    ],
    [
      'an undefined attribute without copy_all_lidar_task_attributes',
      [box({ attributes: { occlusion: '25%' } })],
      /"response.annotations\[0\].attributes.occlusion" is not an attribute defined in annotation_attributes/,
      { copy_all_lidar_task_attributes: false },
    ],
  ];
  for (const [what, annotations, message, overrides] of misfits) {
    it(`POST /_mock/tasks/{id}/complete with ${what} answers 400`, async () => {
      const t = makeApp();
      const task = await linkingTask(t, overrides);
      const res = await complete(t, task.task_id, { annotations });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it("POST /_mock/tasks/{id}/complete synthesizes default-geometry projections with the cuboids' uuids", async () => {
    const t = makeApp();
    const lidar = await completedLidarTask(t);
    const task = await created(t, 'lidarlinking', { lidar_task: lidar.task_id });
    const done = (await complete(t, task.task_id)).body;
    expectSelfConsistent(done);
    const cuboids = new Map<string, string>(
      lidar.response.annotations[0].cuboids.map((c: { uuid: string; label: string }) => [c.uuid, c.label]),
    );
    expect(done.response.annotations).toHaveLength(9); // 3 cuboids x cameras 0, 1, 2
    for (const projection of done.response.annotations) {
      expect(projection).toMatchObject({ type: 'cuboid', frame_index: 1 });
      expect(cuboids.get(projection.uuid)).toBe(projection.label);
    }
    expect(new Set(done.response.annotations.map((a: { camera_id: number }) => a.camera_id))).toEqual(
      new Set([0, 1, 2]),
    );
  });

  it('synthesized legacy projections draw the legacy kind and never a skipped label', async () => {
    const t = makeApp();
    const task = await linkingTask(t, {
      annotation_type: 'polygonannotation',
      geometries: undefined,
      default_geometry: undefined,
      camera_ids: undefined,
      event_camera_ids: undefined,
      additional_labels: ['sign', 'pedestrian'],
    });
    const done = (await complete(t, task.task_id)).body;
    expectSelfConsistent(done);
    expect(
      done.response.annotations.map((a: { type: string; label: string; camera_id: number }) => [
        a.type,
        a.label,
        a.camera_id,
      ]),
    ).toEqual([['polygon', 'sign', 0]]);
  });
});

describe('synthesized lidar responses', () => {
  /**
   * Creates the type's fixture (after a completed lidar task for lidarlinking) and completes it with a synthesized
   * response.
   */
  async function synthesized(type: string) {
    const t = makeApp();
    const lidar = type === 'lidarlinking' ? await completedLidarTask(t) : undefined;
    const task = await created(t, type, lidar ? { lidar_task: lidar.task_id } : {});
    const res = await complete(t, task.task_id);
    expect(res.status).toBe(200);
    return withResultFile(t, res.body);
  }

  for (const type of ['lidarannotation', 'lidarsegmentation', 'lidartopdown', 'lidarlinking']) {
    it(`POST /_mock/tasks/{id}/complete synthesizes a valid ${type} response, the same per task id`, async () => {
      const first = await synthesized(type);
      expectSelfConsistent(first);
      expect((await synthesized(type)).response).toEqual(first.response);
    });
  }
});
