import { describe, expect, it } from 'vitest';
import { createImageTask, imageRequest, makeApp, STRICT } from './helpers.js';

const box = (extra: Record<string, unknown> = {}) => ({ box: { objects_to_annotate: ['car'], ...extra } });

describe('POST /v1/task/imageannotation', () => {
  it('POST /v1/task/imageannotation answers 200 with the full pending task', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      task_id: '000000000000000000000001',
      type: 'imageannotation',
      status: 'pending',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      callback_url: 'https://example.com/callback',
      callback_succeeded: false,
      callback_completed: false,
      metadata: { customer_ref: 'order-17' },
      project_param_version: null,
      priority: 20,
      tags: ['street'],
      audits: [],
      is_test: true,
      urgency: 'standard',
      work_started: false,
    });
    expect(res.body.params).toMatchObject({
      attachment_type: 'image',
      attachment: 'https://example.com/images/street.jpg',
    });
    expect(res.body.params.geometries.polygon).toEqual({
      objects_to_annotate: ['pedestrian'],
      min_vertices: 3,
      max_vertices: 20,
    });
    // Common parameters live on the task, not in params.
    expect(res.body.params).not.toHaveProperty('callback_url');
    expect(res.body).not.toHaveProperty('response');
    expect(res.body).not.toHaveProperty('completed_at');
    expect(res.body).not.toHaveProperty('unique_id');
  });

  it('POST /v1/task/imageannotation defaults metadata to {} and omits tags and unique_id', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: { attachment: 'https://x.test/a.png', geometries: box() },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({});
    expect(Object.keys(res.body)).not.toContain('tags');
    expect(Object.keys(res.body)).not.toContain('unique_id');
  });

  it('POST /v1/task/imageannotation accepts callback as an alias and an e-mail address', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({ callback_url: undefined, callback: 'ops@example.com' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.callback_url).toBe('ops@example.com');
  });

  it('POST /v1/task/imageannotation accepts every geometry with its settings', async () => {
    const t = makeApp();
    const geometries = {
      box: { objects_to_annotate: ['car'], min_height: 5, min_width: 5, can_rotate: true },
      polygon: { objects_to_annotate: ['lot'], min_vertices: 4, max_vertices: 4 },
      line: { objects_to_annotate: ['lane'], min_vertices: 2, max_vertices: 10 },
      point: { objects_to_annotate: ['head'] },
      ellipse: { objects_to_annotate: ['wheel'] },
      cuboid: {
        objects_to_annotate: ['truck'],
        min_height: 1,
        min_width: 1,
        camera_intrinsics: { fx: 1000, fy: 1000, cx: 500, cy: 400, skew: 0, scalefactor: 2 },
        camera_rotation_quaternion: { w: 1, x: 0, y: 0, z: 0 },
        camera_height: 2,
      },
    };
    const res = await t.call('POST', '/v1/task/imageannotation', {
      body: imageRequest({
        geometries,
        annotation_attributes: {
          parked: { description: 'Parked?', choices: ['yes', 'no'], conditions: { label_condition: 'car' } },
          heading: {
            type: 'angle',
            description: 'Heading',
            conditions: { label_condition: { label: ['car', 'truck'] }, attribute_conditions: { parked: 'no' } },
          },
        },
        links: { follows: { from: ['car'], to: ['truck'] } },
        layer: { boxes: [] },
        image_metadata: {
          date_time: '2026-01-01T00:00:00Z',
          resolution: { resolution_ratio: 0.5, resolution_unit: 'm' },
          location: { lat: 52.5, long: 13.4 },
        },
        padding: 10,
        paddingX: 5,
        paddingY: 0,
        context_attachment: [{ attachment: 'https://example.com/images/context.jpg' }],
        can_add_base_annotations: false,
        can_edit_base_annotations: true,
        can_edit_base_annotation_labels: false,
        can_delete_base_annotations: false,
        hypothesis: { annotations: [{ type: 'box', label: 'car', left: 1, top: 2, width: 3, height: 4 }] },
        base_annotations: { annotations: [{ type: 'point', label: 'head', x: 1, y: 2, uuid: 'u-1' }] },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body.params.geometries).toEqual(geometries);
    expect(res.body.params.padding).toBe(10);
  });

  const rejections: [string, Record<string, unknown>, RegExp][] = [
    ['a missing attachment', { attachment: undefined }, /"attachment" is required/],
    ['missing geometries', { geometries: undefined }, /"geometries" is required/],
    ['an empty geometries object', { geometries: {} }, /"geometries" must name at least one geometry/],
    [
      'an unknown geometry',
      { geometries: { rectangle: { objects_to_annotate: ['a'] } } },
      /"geometries.rectangle" is not an allowed parameter/,
    ],
    [
      'max_vertices below min_vertices',
      { geometries: { polygon: { objects_to_annotate: ['a'], min_vertices: 5, max_vertices: 4 } } },
      /"geometries.polygon.max_vertices" must be at least min_vertices \(5\)/,
    ],
    [
      'line max_vertices below min_vertices',
      { geometries: { line: { objects_to_annotate: ['a'], min_vertices: 3, max_vertices: 2 } } },
      /"geometries.line.max_vertices"/,
    ],
    [
      'integer_pixels with can_rotate',
      { geometries: box({ can_rotate: true, integer_pixels: true }) },
      /"geometries.box.integer_pixels" cannot be true when can_rotate is true/,
    ],
    [
      'a fractional min_height',
      { geometries: box({ min_height: 2.5 }) },
      /"geometries.box.min_height" must be an integer/,
    ],
    [
      'empty objects_to_annotate',
      { geometries: { point: { objects_to_annotate: [] } } },
      /"geometries.point.objects_to_annotate" must have at least 1 item/,
    ],
    [
      'a repeated label',
      { geometries: { point: { objects_to_annotate: ['a', 'a'] } } },
      /must not repeat labels \(repeated: a\)/,
    ],
    [
      'a label object without choice',
      { geometries: { point: { objects_to_annotate: [{ subchoices: ['x'] }] } } },
      /"geometries.point.objects_to_annotate\[0\].choice" is required/,
    ],
    [
      'camera intrinsics without fx',
      { geometries: { cuboid: { objects_to_annotate: ['a'], camera_intrinsics: { fy: 1, cx: 1, cy: 1 } } } },
      /"geometries.cuboid.camera_intrinsics.fx" is required/,
    ],
    [
      'a quaternion missing w',
      { geometries: { cuboid: { objects_to_annotate: ['a'], camera_rotation_quaternion: { x: 0, y: 0, z: 0 } } } },
      /"geometries.cuboid.camera_rotation_quaternion.w" is required/,
    ],
    [
      'a context attachment equal to the attachment',
      { context_attachment: [{ attachment: 'https://example.com/images/street.jpg' }] },
      /"context_attachment\[0\].attachment" must not equal the task attachment/,
    ],
    ['six tags', { tags: ['a', 'b', 'c', 'd', 'e', 'f'] }, /"tags" must have at most 5 item/],
    ['an empty tag', { tags: ['a', ' '] }, /"tags\[1\]" must be a non-empty string/],
    ['metadata over 10 KB', { metadata: { blob: 'x'.repeat(10_300) } }, /"metadata" must be at most 10 KB/],
    ['priority 15', { priority: 15 }, /"priority" must be 10, 20 or 30/],
    [
      'a callback_url without scheme',
      { callback_url: 'example.com/cb' },
      /"callback_url" must be a full URL with scheme/,
    ],
    ['an ftp callback_url', { callback_url: 'ftp://example.com/cb' }, /"callback_url" must be a full URL/],
    ['an unknown parameter', { geometry: {} }, /"geometry" is not an allowed parameter/],
    ['an instruction that is not a string', { instruction: 42 }, /"instruction" must be a string \(got number\)/],
    [
      'a category attribute without choices',
      { annotation_attributes: { a: { description: 'q' } } },
      /"annotation_attributes.a.choices" is required/,
    ],
    [
      'a label condition naming an absent label',
      { annotation_attributes: { a: { description: 'q', choices: ['x'], conditions: { label_condition: 'plane' } } } },
      /names label "plane", which is not one of the task's labels/,
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
    [
      'a hypothesis with a label the task lacks',
      { hypothesis: { annotations: [{ type: 'box', label: 'plane', left: 0, top: 0, width: 1, height: 1 }] } },
      /"hypothesis.annotations\[0\].label" is "plane"/,
    ],
    [
      'base annotations of a geometry not requested',
      { base_annotations: { annotations: [{ type: 'point', label: 'car', x: 0, y: 0 }] } },
      /"base_annotations.annotations\[0\].type" is "point", a geometry the task did not ask for/,
    ],
    [
      'a hypothesis box without width',
      { hypothesis: { annotations: [{ type: 'box', label: 'car', left: 0, top: 0, height: 1 }] } },
      /"hypothesis.annotations\[0\].width" is required/,
    ],
    [
      'an image_metadata latitude of 91',
      { image_metadata: { location: { lat: 91, long: 0 } } },
      /"image_metadata.location.lat" must be at most 90/,
    ],
    ['a negative padding', { padding: -1 }, /"padding" must be at least 0/],
    [
      'a permission flag that is not boolean',
      { can_add_base_annotations: 'no' },
      /"can_add_base_annotations" must be a boolean/,
    ],
    ['a project_version that is not a number', { project_version: 'v1' }, /"project_version" must be a number/],
  ];

  for (const [what, overrides, message] of rejections) {
    it(`POST /v1/task/imageannotation rejects ${what} with 400`, async () => {
      const t = makeApp(STRICT);
      const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest(overrides) });
      expect(res.status).toBe(400);
      expect(res.body.status_code).toBe(400);
      expect(res.body.error).toMatch(message);
    });
  }

  it('POST /v1/task/imageannotation stores nothing when it rejects a request', async () => {
    const t = makeApp();
    await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ priority: 11 }) });
    const list = await t.call('GET', '/v1/tasks');
    expect(list.body.total).toBe(0);
  });

  it('POST /v1/task/{type} with an unknown type is a 400 naming the supported types', async () => {
    const t = makeApp();
    const res = await t.call('POST', '/v1/task/flyingannotation', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/Task type "flyingannotation" is not supported; supported types: .*imageannotation/);
  });

  it('POST /v1/task/imageannotation with a used unique_id is a 409 naming the holder', async () => {
    const t = makeApp();
    const first = await createImageTask(t, { unique_id: 'order-1' });
    const res = await t.call('POST', '/v1/task/imageannotation', { body: imageRequest({ unique_id: 'order-1' }) });
    expect(res.status).toBe(409);
    expect(res.body.error).toContain(first.task_id);
  });

  it('POST /v1/task/imageannotation keeps unique_id per mode: test and live do not collide', async () => {
    const t = makeApp();
    await createImageTask(t, { unique_id: 'shared' });
    const live = await t.call('POST', '/v1/task/imageannotation', {
      key: 'live_acme',
      body: imageRequest({ unique_id: 'shared' }),
    });
    expect(live.status).toBe(200);
  });
});
