import { describe, expect, it } from 'vitest';
import { ImageAnnotationResponseSchema } from '../src/domain/tasks/image-annotations.js';
import { findTaskType } from '../src/domain/tasks/registry.js';
import { createImageTask, makeApp } from './helpers.js';

const complete = async (geometries: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
  const t = makeApp();
  const task = await createImageTask(t, { geometries, annotation_attributes: undefined, ...extra });
  const res = await t.call('POST', `/_mock/tasks/${task.task_id}/complete`);
  expect(res.status).toBe(200);
  expect(ImageAnnotationResponseSchema.safeParse(res.body.response).success).toBe(true);
  return res.body.response.annotations as any[];
};

describe('synthesized imageannotation responses', () => {
  it('are the same for the same task id and differ between tasks', async () => {
    const a = await complete({ box: { objects_to_annotate: ['car'] } });
    const b = await complete({ box: { objects_to_annotate: ['car'] } });
    expect(a).toEqual(b); // both apps give the first task the same id
    const t = makeApp();
    const first = await createImageTask(t);
    const second = await createImageTask(t);
    const r1 = (await t.call('POST', `/_mock/tasks/${first.task_id}/complete`)).body.response;
    const r2 = (await t.call('POST', `/_mock/tasks/${second.task_id}/complete`)).body.response;
    expect(r1).not.toEqual(r2);
  });

  it('honour box minimum sizes and integer_pixels', async () => {
    const [box] = await complete({
      box: { objects_to_annotate: ['car'], min_width: 300, min_height: 250, integer_pixels: true },
    });
    expect(box.width).toBeGreaterThanOrEqual(300);
    expect(box.height).toBeGreaterThanOrEqual(250);
    for (const key of ['left', 'top', 'width', 'height']) expect(Number.isInteger(box[key])).toBe(true);
  });

  it('give rotated boxes a rotation and four vertices', async () => {
    const [box] = await complete({ box: { objects_to_annotate: ['car'], can_rotate: true } });
    expect(typeof box.rotation).toBe('number');
    expect(box.vertices).toHaveLength(4);
  });

  it('respect vertex bounds of polygons and lines, and show lines and ellipses as polygons', async () => {
    const annotations = await complete({
      polygon: { objects_to_annotate: ['lot'], min_vertices: 8, max_vertices: 9 },
      line: { objects_to_annotate: ['lane'], max_vertices: 2 },
      ellipse: { objects_to_annotate: ['wheel'] },
    });
    const byLabel = Object.fromEntries(annotations.map((a) => [a.label, a]));
    expect(byLabel.lot.vertices.length).toBeGreaterThanOrEqual(8);
    expect(byLabel.lot.vertices.length).toBeLessThanOrEqual(9);
    expect(byLabel.lane).toMatchObject({ type: 'polygon' });
    expect(byLabel.lane.vertices).toHaveLength(2);
    expect(byLabel.wheel.vertices).toHaveLength(4);
  });

  it('give cuboids vertices and edges, and points_2d/points_3d only with a full camera model', async () => {
    const [plain] = await complete({ cuboid: { objects_to_annotate: ['truck'] } });
    expect(plain.vertices.map((v: { description: string }) => v.description)).toEqual([
      'face-topleft',
      'face-bottomleft',
      'face-topright',
      'face-bottomright',
      'side-topcorner',
      'side-bottomcorner',
    ]);
    expect(plain.edges).toHaveLength(6);
    expect(plain).not.toHaveProperty('points_3d');
    const camera = {
      camera_intrinsics: { fx: 1000, fy: 1000, cx: 640, cy: 360 },
      camera_rotation_quaternion: { w: 1, x: 0, y: 0, z: 0 },
      camera_height: 2,
    };
    const [full] = await complete({ cuboid: { objects_to_annotate: ['truck'], ...camera } });
    expect(full.points_3d).toHaveLength(8);
    expect(full.points_2d).toHaveLength(8);
    // The 2D points are the 3D corners through the pinhole model.
    const p = full.points_3d[0];
    expect(full.points_2d[0].x).toBeCloseTo((1000 * p.x) / p.z + 640, 0);
  });

  it('answer only the attributes whose conditions hold', async () => {
    const annotations = await complete(
      { box: { objects_to_annotate: ['car', 'tree'] } },
      {
        annotation_attributes: {
          moving: { description: 'Moving?', choices: ['yes', 'no'], conditions: { label_condition: 'car' } },
          speed: { type: 'number', description: 'Speed', conditions: { attribute_conditions: { moving: 'yes' } } },
          color: { description: 'Color', choices: [{ choice: 'warm', subchoices: ['red'] }, 'blue'] },
        },
      },
    );
    const [car, tree] = annotations;
    expect(car.attributes).toMatchObject({ moving: 'yes', color: 'red' });
    expect(typeof car.attributes.speed).toBe('number');
    expect(tree.attributes).toEqual({ color: 'red' });
  });
});

describe('the task-type kit', () => {
  it('PUT /_mock/state of a task whose params are unfit for its type is a 400: no completion meets them', async () => {
    const t = makeApp();
    const task = await createImageTask(t);
    const state = (await t.call('GET', '/_mock/state')).body;
    state.tasks[0].task.params = { attachment: 'https://example.com/a.png' };
    const res = await t.call('PUT', '/_mock/state', { body: state });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/"tasks\[0\]\.task\.params\.geometries" does not fit type imageannotation/);
    expect((await t.call('POST', `/_mock/tasks/${task.task_id}/complete`)).status).toBe(200);
  });

  it('judges a given response: malformed, unfit or fitting, with paths from response', async () => {
    const def = findTaskType('imageannotation');
    if (!def) throw new Error('imageannotation is registered');
    const task = await createImageTask(makeApp(), {
      geometries: { box: { objects_to_annotate: ['car'] } },
      annotation_attributes: undefined,
    });
    const box = { uuid: 'u', label: 'car', type: 'box', left: 1, top: 1, width: 5, height: 5 };
    const tree = { annotations: [{ ...box, label: 'tree' }] };
    expect(def.judgeResponse(task, { annotations: 'no' }).kind).toBe('malformed');
    expect(def.judgeResponse(task, tree).kind).toBe('unfit');
    expect(def.checkResponse(task, tree)[0]?.path).toEqual(['response', 'annotations', 0, 'label']);
    expect(def.judgeResponse(task, { annotations: [box] })).toEqual({
      kind: 'fits',
      response: { annotations: [{ ...box, attributes: {} }] },
    });
  });
});
