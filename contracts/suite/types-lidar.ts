import { randomBytes } from 'node:crypto';
import type { Task, TaskOfType } from '../kit/answers.js';
import {
  asArray,
  asObject,
  type ContractContext,
  contract,
  expectEqual,
  expectErrorBody,
  expectMatch,
  expectOneOf,
  expectStatus,
  expectTrue,
  expectType,
  setupStep,
} from '../kit/contract.js';
import { awaitSelfCompletion, holdTasksPending } from '../kit/control.js';
import { expectTaskType, getTask, randomTaskId } from '../kit/tasks.js';
import { type Body, completedOf, createOf, expectParamsEcho } from '../kit/typed-tasks.js';

/** lidarannotation, lidarsegmentation, lidartopdown and lidarlinking: creation rules and response shapes. */

const frames = (count: number, ext = 'json') => {
  const drive = randomBytes(6).toString('hex');
  return Array.from({ length: count }, (_, i) => `https://example.com/contracts/${drive}/frame-${i}.${ext}`);
};

/** 6 frames at rate 2: the labeled frames are 1, 3, 5 and 6. */
const lidarBody = (overrides: Body = {}): Body => ({
  instruction: 'Draw a cuboid around every vehicle and pedestrian.',
  attachments: frames(6),
  attachment_type: 'json',
  labels: ['car', { choice: 'vehicle', subchoices: ['truck', 'bus'] }, 'pedestrian'],
  labeling_sample_rate: 2,
  max_distance_meters: 60,
  polygons_enabled: true,
  polygons_labels: ['parking_lot'],
  ...overrides,
});

const segmentationBody = (overrides: Body = {}): Body => ({
  instruction: 'Give every point a class.',
  attachments: frames(3, 'pb'),
  attachment_type: 'protobuf',
  labels: [{ choice: 'vehicle', instance_label: true, subchoices: ['car', 'truck'] }, 'road'],
  ...overrides,
});

const topDownBody = (project: string, batch: string, overrides: Body = {}): Body => ({
  project,
  batch,
  instruction: 'Trace lanes in driving direction; outline crosswalks.',
  attachments: frames(2),
  region_of_interest_3d: { center: { x: 0, y: 0 }, width: 100, height: 50, rotation: 0 },
  geometries: {
    polygon: { objects_to_annotate: ['crosswalk'] },
    line: { objects_to_annotate: ['lane'] },
    point: { objects_to_annotate: ['pole'] },
  },
  directed_line: ['lane'],
  deviceHeight: 2,
  ...overrides,
});

const linkingBody = (lidarTask: string, overrides: Body = {}): Body => ({
  instruction: 'Fit every projected cuboid to the camera image.',
  lidar_task: lidarTask,
  annotation_type: 'imageannotation',
  geometries: { cuboid: { objects_to_annotate: ['car', 'truck', 'bus'] } },
  default_geometry: 'cuboid',
  camera_ids: [0, 1],
  labeling_sample_rate: 2,
  skip_labels: ['pedestrian'],
  events_to_annotate: ['lane_change'],
  event_camera_ids: [{ event: 'lane_change', camera_ids: [0] }],
  ...overrides,
});

/** A completed lidar task to link or segment from: forced where a control plane exists, awaited otherwise. */
async function completedLidarTask(ctx: ContractContext): Promise<TaskOfType<'lidarannotation'>> {
  if (await ctx.hasControlPlane()) return completedOf(ctx, 'lidarannotation', lidarBody());
  const task = await createOf(ctx, 'lidarannotation', lidarBody());
  const completed: unknown = await awaitSelfCompletion(ctx, task.task_id, 'lidar task');
  expectTaskType(completed, 'lidarannotation', 'the completed lidar task');
  return completed;
}

/** A lidar task that stays pending, or a skip where the target completes test tasks by itself. */
async function pendingLidarTask(ctx: ContractContext): Promise<Task> {
  await holdTasksPending(ctx);
  const task = await createOf(ctx, 'lidarannotation', lidarBody());
  if ((await getTask(ctx.api, task.task_id)).status !== 'pending')
    ctx.skip('target completed the lidar task by itself');
  return task;
}

/** A fresh lidartopdown project with a batch: the type requires both. */
async function topDownBatch(ctx: ContractContext): Promise<{ project: string; batch: string }> {
  const project = ctx.unique('lidar_topdown');
  expectStatus(await ctx.api.post('/v1/projects', { type: 'lidartopdown', name: project }), 200);
  const batch = ctx.unique('lidar_batch');
  expectStatus(await ctx.api.post('/v1/batches', { project, name: batch }), 200);
  return { project, batch };
}

/**
 * One rule per case: each broken rule of the type answers 400 naming its field. A case marked `labelmock` is
 * labelmock's reading where the interface leaves a correct server free to accept the body.
 */
async function expectRejections(
  ctx: ContractContext,
  type: string,
  cases: [Body, string, 'labelmock'?][],
): Promise<void> {
  for (const [i, [body, field, kind]] of cases.entries())
    await ctx.rule(
      `case ${i + 1} answers 400 naming ${field}`,
      async () => expectErrorBody(await ctx.api.post(`/v1/task/${type}`, body), 400, field),
      kind,
    );
}

contract('POST /v1/task/lidarannotation answers 200 with frames, labels and sampling in params', async (ctx) => {
  const body = lidarBody();
  const task = await createOf(ctx, 'lidarannotation', body);
  await expectParamsEcho(ctx, task, body, [
    'attachments',
    'attachment_type',
    'labels',
    'labeling_sample_rate',
    'max_distance_meters',
    'polygons_enabled',
    'polygons_labels',
  ]);
});

contract('POST /v1/task/lidarannotation breaking its rules answers 400 naming the field', async (ctx) => {
  await expectRejections(ctx, 'lidarannotation', [
    // The interface calls attachment_type both required and "json (default)": labelmock reads required.
    [lidarBody({ attachment_type: undefined }), 'attachment_type', 'labelmock'],
    [lidarBody({ attachment_type: 'pcd' }), 'attachment_type'],
    [lidarBody({ attachments: [] }), 'attachments'],
    [lidarBody({ labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }), 'labels'],
    [lidarBody({ labeling_sample_rate: 0 }), 'labeling_sample_rate'],
  ]);
});

/**
 * The labeled frames of a completed lidarannotation task: the real service delivers them as a file the response
 * links (`response.annotations.url`), which a plain GET without a key reads (scale_lidar_io does so).
 */
async function lidarFrames(ctx: ContractContext, task: TaskOfType<'lidarannotation'>): Promise<unknown> {
  const url = task.response?.annotations.url;
  return setupStep('read the results file response.annotations.url links', async () => {
    expectType(url, 'string', 'response.annotations.url');
    const { pathname, search } = new URL(url);
    const res = await ctx.api.get(`${pathname}${search}`, { authorization: null, raw: true });
    expectStatus(res, 200);
    return res.body;
  });
}

/** The results file read as frames: a list of objects, each with its list of cuboid objects. */
function framesOf(file: unknown): { frame_index: unknown; cuboids: Record<string, unknown>[] }[] {
  return asArray(file, 'the results file').map((item, i) => {
    const frame = asObject(item, `frames[${i}]`);
    const cuboids = asArray(frame.cuboids, `frames[${i}].cuboids`);
    return {
      frame_index: frame.frame_index,
      cuboids: cuboids.map((c, j) => asObject(c, `frames[${i}].cuboids[${j}]`)),
    };
  });
}

// The callback docs and scale_lidar_io (PyPI scale-lidar-io), LidarAnnotationTask.get_annotations().
contract(
  'a completed lidarannotation task links its frames in response.annotations.url, read without a key',
  async (ctx) => {
    const task = await completedLidarTask(ctx);
    await ctx.rule('response is {annotations: {url}}, an absolute URL', () => {
      expectEqual(Object.keys(task.response ?? {}), ['annotations'], 'response keys');
      expectMatch(task.response?.annotations.url, /^https?:\/\//, 'response.annotations.url');
    });
    const frames = await lidarFrames(ctx, task);
    // scale_lidar_io's get_cuboid_positions_by_frame: `for frame in annotations: ... frame['cuboids']`.
    await ctx.rule('the file is a JSON list of frames, each with its cuboids', () => {
      expectTrue(framesOf(frames).length > 0, 'the file: a non-empty list of frames');
    });
  },
);

contract('a completed lidarannotation task has cuboids on the labeled frames only, one label per uuid', async (ctx) => {
  const file = await lidarFrames(ctx, await completedLidarTask(ctx));
  await ctx.rule('the file is a non-empty list of frames', () =>
    expectTrue(Array.isArray(file) && file.length > 0, 'the results file: expected a non-empty list of frames'),
  );
  const frames = Array.isArray(file) ? framesOf(file) : [];
  await ctx.rule('only labeled frames have cuboids', () => {
    for (const frame of frames)
      expectOneOf(frame.frame_index, [1, 3, 5, 6], 'frame_index (a labeled frame of 6 at rate 2)');
  });
  await ctx.rule('cuboids have a leaf label, position, dimensions and yaw', () => {
    for (const cuboid of frames.flatMap((frame) => frame.cuboids)) {
      expectOneOf(cuboid.label, ['car', 'truck', 'bus', 'pedestrian'], 'cuboid label (a leaf label)');
      for (const key of ['position', 'dimensions']) expectType(cuboid[key], 'object', `cuboid ${key}`);
      expectType(cuboid.yaw, 'number', 'cuboid yaw');
    }
  });
  await ctx.rule('each uuid keeps one label across frames', () => {
    const labels = new Map<string, string>();
    for (const cuboid of frames.flatMap((frame) => frame.cuboids)) {
      const [uuid, label] = [String(cuboid.uuid), String(cuboid.label)];
      expectEqual(label, labels.get(uuid) ?? label, `label of uuid ${uuid}`);
      labels.set(uuid, label);
    }
  });
});

contract(
  'POST /v1/task/lidarsegmentation answers 200 standalone and after a completed lidarannotation task',
  async (ctx) => {
    const body = segmentationBody();
    const task = await createOf(ctx, 'lidarsegmentation', body);
    await expectParamsEcho(ctx, task, body, ['attachments', 'attachment_type', 'labels']);
    const lidar = await completedLidarTask(ctx);
    let dependent: Task | undefined;
    await ctx.rule('a lidarsegmentation task takes a completed lidar_task', async () => {
      dependent = await createOf(ctx, 'lidarsegmentation', segmentationBody({ lidar_task: lidar.task_id }));
    });
    await ctx.rule(
      'its params show the lidar_task',
      () => expectEqual(dependent?.params?.lidar_task, lidar.task_id, 'params.lidar_task'),
      'labelmock',
    );
  },
);

contract('POST /v1/task/lidarsegmentation breaking its rules answers 400 naming the field', async (ctx) => {
  await expectRejections(ctx, 'lidarsegmentation', [
    [segmentationBody({ labels: undefined }), 'labels'],
    [segmentationBody({ attachment_type: 'las' }), 'attachment_type'],
    // The interface lists no lidar_task for a standalone lidarsegmentation: checking it is labelmock's.
    [segmentationBody({ lidar_task: randomTaskId() }), 'lidar_task', 'labelmock'],
  ]);
  const pending = await pendingLidarTask(ctx);
  await ctx.rule(
    'a pending lidar_task answers 400 naming lidar_task',
    async () =>
      expectErrorBody(
        await ctx.api.post('/v1/task/lidarsegmentation', segmentationBody({ lidar_task: pending.task_id })),
        400,
        'lidar_task',
      ),
    'labelmock',
  );
});

contract('a completed lidarsegmentation task classifies the points of its frames with leaf labels', async (ctx) => {
  const { response } = await completedOf(ctx, 'lidarsegmentation', segmentationBody());
  expectTrue(response.annotations.length > 0, 'response.annotations: expected classified frames');
  await ctx.rule('label_mapping lists leaf labels', () => {
    for (const name of response.label_mapping)
      expectOneOf(name, ['car', 'truck', 'road'], 'label_mapping entry (a leaf label)');
  });
  await ctx.rule("frames are the task's frames", () => {
    for (const frame of response.annotations) expectOneOf(frame.frame_index, [1, 2, 3], 'frame_index');
  });
  await ctx.rule('point classes index label_mapping', () => {
    for (const frame of response.annotations)
      expectTrue(
        frame.labels.every((i: number) => Number.isInteger(i) && i >= 0 && i < response.label_mapping.length),
        'point classes index label_mapping',
      );
  });
});

contract('POST /v1/task/lidartopdown answers 200 with its project, batch and geometries', async (ctx) => {
  const { project, batch } = await topDownBatch(ctx);
  const body = topDownBody(project, batch);
  const task = await createOf(ctx, 'lidartopdown', body);
  await ctx.rule('the task belongs to the project given', () => expectEqual(task.project, project, 'project'));
  await expectParamsEcho(ctx, task, body, [
    'attachments',
    'geometries',
    'directed_line',
    'region_of_interest_3d',
    'deviceHeight',
  ]);
});

contract('POST /v1/task/lidartopdown breaking its rules answers 400 naming the field', async (ctx) => {
  const { project, batch } = await topDownBatch(ctx);
  const body = (overrides: Body) => topDownBody(project, batch, overrides);
  await expectRejections(ctx, 'lidartopdown', [
    [body({ geometries: { box: { objects_to_annotate: ['car'] } } }), 'geometries.box'],
    [body({ attachment: ['https://example.com/aerial.png'] }), 'attachment'],
    [body({ region_of_interest_3d: undefined }), 'region_of_interest_3d'],
    [body({ directed_line: ['crosswalk'] }), 'directed_line'],
    [body({ batch: undefined }), 'batch'],
  ]);
});

contract("a completed lidartopdown task has only polygons, lines and points with the task's labels", async (ctx) => {
  const { project, batch } = await topDownBatch(ctx);
  const { response } = await completedOf(ctx, 'lidartopdown', topDownBody(project, batch));
  expectTrue(response.annotations.length > 0, 'response.annotations: expected some shapes');
  await ctx.rule('shapes are polygons, lines or points', () => {
    for (const annotation of response.annotations)
      expectOneOf(annotation.type, ['polygon', 'line', 'point'], 'annotation type');
  });
  await ctx.rule("shapes carry the task's labels", () => {
    for (const annotation of response.annotations)
      expectOneOf(annotation.label, ['crosswalk', 'lane', 'pole'], 'annotation label');
  });
});

contract(
  "POST /v1/task/lidarlinking answers 200 for a completed lidar task with the interface's params",
  async (ctx) => {
    const lidar = await completedLidarTask(ctx);
    const body = linkingBody(lidar.task_id);
    const task = await createOf(ctx, 'lidarlinking', body);
    await expectParamsEcho(ctx, task, body, [
      'lidar_task',
      'annotation_type',
      'geometries',
      'default_geometry',
      'labeling_sample_rate',
    ]);
  },
);

contract('POST /v1/task/lidarlinking breaking its rules answers 400 naming the field', async (ctx) => {
  const lidar = await completedLidarTask(ctx);
  const body = (overrides: Body) => linkingBody(lidar.task_id, overrides);
  await expectRejections(ctx, 'lidarlinking', [
    [body({ lidar_task: randomTaskId() }), 'lidar_task'],
    [body({ annotation_type: 'boxannotation' }), 'annotation_type'],
    [body({ instruction: undefined }), 'instruction'],
    [body({ geometries: undefined }), 'geometries'],
    [body({ default_geometry: undefined }), 'default_geometry'],
    [body({ additional_labels: ['sign'] }), 'additional_labels'],
    [body({ skip_labels: ['boat'] }), 'skip_labels'],
    [body({ can_edit_annotations: false, can_delete_annotations: true }), 'can_delete_annotations'],
    [body({ event_camera_ids: [{ event: 'overtake', camera_ids: [0] }] }), 'event_camera_ids'],
    [body({ layers: [{ camera_id: 0 }] }), 'layers'],
  ]);
  const pending = await pendingLidarTask(ctx);
  await ctx.rule('a pending lidar_task answers 400 naming lidar_task', async () =>
    expectErrorBody(await ctx.api.post('/v1/task/lidarlinking', linkingBody(pending.task_id)), 400, 'lidar_task'),
  );
});

contract(
  "a completed lidarlinking task projects the lidar task's cuboids, keeping their uuids and labels",
  async (ctx) => {
    const lidar = await completedLidarTask(ctx);
    const cuboids = new Map<string, string>();
    for (const frame of framesOf(await lidarFrames(ctx, lidar)))
      for (const c of frame.cuboids) cuboids.set(String(c.uuid), String(c.label));
    const { response } = await completedOf(ctx, 'lidarlinking', linkingBody(lidar.task_id));
    expectTrue(response.annotations.length > 0, 'response.annotations: expected some projections');
    const projections = response.annotations;
    await ctx.rule('projections are cuboids, the default geometry', () => {
      for (const p of projections) expectEqual(p.type, 'cuboid', 'projection type (the default geometry)');
    });
    await ctx.rule('projections name one of camera_ids and a 1-based frame', () => {
      for (const p of projections) {
        expectOneOf(p.camera_id, [0, 1], 'camera_id (one of camera_ids)');
        expectTrue(Number.isInteger(p.frame_index) && p.frame_index >= 1, 'frame_index: a 1-based frame number');
      }
    });
    await ctx.rule("projections keep the lidar cuboid's uuid and label", () => {
      for (const p of projections) expectEqual(p.label, cuboids.get(p.uuid), `label of the cuboid with uuid ${p.uuid}`);
    });
  },
);
