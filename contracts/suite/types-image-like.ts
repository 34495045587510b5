import { randomBytes } from 'node:crypto';
import { contract, expectEqual, expectErrorBody, expectOneOf, expectTrue, expectType } from '../kit/contract.js';
import { holdTasksPending } from '../kit/control.js';
import { type Body, completedOf, createOf, expectParamsEcho } from '../kit/typed-tasks.js';

/** segmentannotation, videoannotation and videoplaybackannotation: creation rules and response shapes. */

const fresh = (path: string) => `https://example.com/contracts/${randomBytes(6).toString('hex')}/${path}`;

const segmentBody = (overrides: Body = {}): Body => ({
  instruction: 'Classify every pixel; each car is its own instance.',
  attachment: fresh('street.jpg'),
  labels: ['road', 'sky', { choice: 'vehicle', subchoices: ['car', 'bus'], instance_label: true }],
  allow_unlabeled: true,
  ...overrides,
});

const videoBody = (overrides: Body = {}): Body => ({
  instruction: 'Track every car through the frames.',
  attachment_type: 'image',
  attachments: [fresh('0001.jpg'), fresh('0002.jpg'), fresh('0003.jpg')],
  geometries: { box: { objects_to_annotate: ['car', 'bus'] } },
  events_to_annotate: ['honk'],
  frame_rate: 2,
  ...overrides,
});

const playbackBody = (overrides: Body = {}): Body => ({
  instruction: 'Box every cyclist.',
  attachment: fresh('ride.mp4'),
  attachment_type: 'video',
  geometries: { box: { objects_to_annotate: ['cyclist'] } },
  frame_rate: 2,
  start_time: 0,
  duration_time: 2,
  ...overrides,
});

const rejections: [string, string, Body, string][] = [
  ['segmentannotation', 'without labels', segmentBody({ labels: undefined }), 'labels'],
  [
    'segmentannotation',
    'with 51 labels',
    segmentBody({ labels: Array.from({ length: 51 }, (_, i) => `l${i}`) }),
    'labels',
  ],
  [
    'segmentannotation',
    'with a context attachment equal to the attachment',
    segmentBody({
      attachment: 'https://example.com/same.jpg',
      context_attachments: [{ attachment: 'https://example.com/same.jpg' }],
    }),
    'context_attachments',
  ],
  ['segmentannotation', 'with attachment_type video', segmentBody({ attachment_type: 'video' }), 'attachment_type'],
  ['videoannotation', 'without geometries', videoBody({ geometries: undefined }), 'geometries'],
  [
    'videoannotation',
    'with image frames given as one URL',
    videoBody({ attachments: fresh('0001.jpg') }),
    'attachments',
  ],
  ['videoannotation', 'with a fractional frame_rate', videoBody({ frame_rate: 2.5 }), 'frame_rate'],
  [
    'videoannotation',
    'with a video that is not mp4, webm or ogg',
    videoBody({ attachment_type: 'video', attachments: undefined, attachment: fresh('clip.avi') }),
    'attachment',
  ],
  ['videoplaybackannotation', 'without geometries', playbackBody({ geometries: undefined }), 'geometries'],
  [
    'videoplaybackannotation',
    'with a video that is not mp4, webm or ogg',
    playbackBody({ attachment: fresh('ride.mkv') }),
    'attachment',
  ],
  ['videoplaybackannotation', 'with a fractional start_time', playbackBody({ start_time: 0.5 }), 'start_time'],
];

for (const [type, what, body, field] of rejections) {
  contract(`POST /v1/task/${type} ${what} answers 400 naming ${field}`, async (ctx) => {
    expectErrorBody(await ctx.api.post(`/v1/task/${type}`, body), 400, field);
  });
}

contract('POST /v1/task/segmentannotation answers 200 with the labels and attachment in params', async (ctx) => {
  const body = segmentBody();
  const task = await createOf(ctx, 'segmentannotation', body);
  await ctx.rule('the new task is pending', () => expectEqual(task.status, 'pending', 'status'));
  await expectParamsEcho(ctx, task, body, ['attachment', 'labels', 'allow_unlabeled']);
});

contract('POST /v1/task/videoannotation answers 200 with frames and geometries in params', async (ctx) => {
  const body = videoBody();
  const task = await createOf(ctx, 'videoannotation', body);
  await expectParamsEcho(ctx, task, body, [
    'attachment_type',
    'attachments',
    'geometries',
    'events_to_annotate',
    'frame_rate',
  ]);
});

// The interface's attachments row: "array of strings (image) or string (video)", the string an mp4, webm or ogg file.
contract('POST /v1/task/videoannotation answers 200 for one video file given as attachments', async (ctx) => {
  const body = videoBody({ attachment_type: 'video', attachments: fresh('drive.mp4') });
  const task = await createOf(ctx, 'videoannotation', body);
  await expectParamsEcho(ctx, task, body, ['attachment_type', 'geometries']);
});

contract('POST /v1/task/videoplaybackannotation answers 200 with the video and frame_rate in params', async (ctx) => {
  const body = playbackBody();
  const task = await createOf(ctx, 'videoplaybackannotation', body);
  const echoed = ['attachment', 'attachment_type', 'geometries', 'duration_time', 'frame_rate'];
  await expectParamsEcho(ctx, task, body, echoed);
  // The interface gives frame_rate a default of 1 frame per second; writing it into params is labelmock's choice.
  await ctx.rule(
    'params show the default frame_rate 1 when the request has none',
    async () => {
      const plain = await createOf(ctx, 'videoplaybackannotation', playbackBody({ frame_rate: undefined }));
      expectEqual(plain.params.frame_rate, 1, 'params.frame_rate (default)');
    },
    'labelmock',
  );
});

contract(
  'a completed segmentannotation task maps leaf labels to colors and indexes, instance labels per instance',
  async (ctx) => {
    const { response } = await completedOf(ctx, 'segmentannotation', segmentBody());
    const instance = ['car', 'bus'];
    await ctx.rule('labelMapping maps leaf labels to {color, index}, instance labels to a list', () => {
      for (const [label, entry] of Object.entries(response.labelMapping ?? {})) {
        expectOneOf(label, ['road', 'sky', ...instance], `response.labelMapping key (a leaf label)`);
        // An instance label maps to a list of entries, a leaf label to one.
        expectTrue(
          Array.isArray(entry) === instance.includes(label),
          `response.labelMapping.${label}: expected ${instance.includes(label) ? 'an array' : 'an object'}`,
        );
        const entries = Array.isArray(entry) ? entry : [entry];
        expectTrue(entries.length > 0, `response.labelMapping.${label}: expected entries`);
        for (const e of entries)
          expectTrue(
            Number.isInteger(e.index) && e.index > 0 && typeof e.color === 'string',
            `response.labelMapping.${label}: {color, index}`,
          );
      }
    });
    await ctx.rule('annotations.combined holds the image and the indexed image', () => {
      expectType(response.annotations?.combined?.image, 'string', 'response.annotations.combined.image');
      expectType(response.annotations?.combined?.indexedImage, 'string', 'response.annotations.combined.indexedImage');
    });
    await ctx.rule('annotations.labeled has one entry per mapped label', () =>
      expectEqual(
        Object.keys(response.annotations?.labeled ?? {}).sort(),
        Object.keys(response.labelMapping ?? {}).sort(),
        'response.annotations.labeled keys',
      ),
    );
  },
);

// The real service's entries, as commaai/comma10k saved 12 of them (commaai/comma10k@f633ba6, scale/response/*.json,
// made by its scale/submit.sh): every entry has attributes (null when none were asked) and an integer numPixels.
contract('a completed segmentannotation task gives each labelMapping entry attributes and numPixels', async (ctx) => {
  const { response } = await completedOf(ctx, 'segmentannotation', segmentBody());
  const entries = Object.values(response.labelMapping ?? {}).flatMap((entry) =>
    Array.isArray(entry) ? entry : [entry],
  );
  await ctx.rule('each entry has attributes, null or an object', () => {
    for (const entry of entries)
      expectTrue(entry.attributes === null || typeof entry.attributes === 'object', 'attributes');
  });
  await ctx.rule('each entry has numPixels, a whole number', () => {
    for (const { numPixels } of entries)
      expectTrue(numPixels !== undefined && Number.isInteger(numPixels) && numPixels >= 0, 'numPixels');
  });
});

/** A response as the real service answered one (comma10k's 0033_..._200.json, labels and entries trimmed). */
const DOTTED = 'vehicles (cars, buses, etc...)';
const recordedSegmentation = () => {
  const entry = (index: number, numPixels: number) => ({ index, color: '#e6194b', attributes: null, numPixels });
  const mask = (name: string) => `https://example.com/contracts/masks/${name}.png`;
  return {
    labelMapping: {
      sky: entry(1, 127741),
      'traffic light': [entry(21, 1117), entry(22, 833)],
      'cones and temporary road work signs': [],
      [DOTTED.replaceAll('.', '\\.')]: [entry(25, 59425)],
      [DOTTED]: [entry(25, 59425)],
    },
    annotations: {
      unlabeled: null,
      labeled: {
        sky: mask('sky'),
        'traffic light': [mask('tl-0'), mask('tl-1')],
        'cones and temporary road work signs': [],
        [DOTTED]: [mask('vehicle-0')],
      },
      combined: { image: mask('combined'), indexedImage: mask('indexed') },
    },
  };
};

contract('POST /_mock/tasks/{id}/complete takes a recorded segmentation response as it was recorded', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const body = segmentBody({
    labels: ['sky'],
    instance_labels: ['traffic light', 'cones and temporary road work signs', DOTTED],
    allow_unlabeled: false,
  });
  const recorded = recordedSegmentation();
  const task = await completedOf(ctx, 'segmentannotation', body, recorded);
  await ctx.rule('null attributes, numPixels, an empty instance list and an escaped label are kept', () =>
    expectEqual(task.response.labelMapping, recorded.labelMapping, 'response.labelMapping'),
  );
});

contract('a completed videoannotation task has one frame per image and keeps each uuid on one label', async (ctx) => {
  const { response } = await completedOf(ctx, 'videoannotation', videoBody());
  await ctx.rule('one frame per image', () =>
    expectTrue(
      Array.isArray(response.annotations) && response.annotations.length === 3,
      `response.annotations: expected 3 frames, got ${JSON.stringify(response.annotations)?.slice(0, 200)}`,
    ),
  );
  const frames = Array.isArray(response.annotations) ? response.annotations : [];
  await ctx.rule("annotations are boxes labeled from the task's objects", () =>
    frames.forEach((frame, f) => {
      for (const annotation of frame.annotations) {
        expectOneOf(annotation.label, ['car', 'bus'], `response.annotations[${f}] label`);
        expectEqual(annotation.type, 'box', `response.annotations[${f}] type`);
      }
    }),
  );
  await ctx.rule('each uuid keeps one label across frames', () => {
    const labels = new Map<string, string>();
    frames.forEach((frame, f) => {
      for (const annotation of frame.annotations) {
        expectEqual(
          annotation.label,
          labels.get(annotation.uuid) ?? annotation.label,
          `label of uuid ${annotation.uuid} in frame ${f}`,
        );
        labels.set(annotation.uuid, annotation.label);
      }
    });
  });
  await ctx.rule("events carry the task's event labels", () => {
    for (const event of response.events ?? []) expectEqual(event.label, 'honk', 'response.events label');
  });
});

contract('a completed videoplaybackannotation task keys objects by uuid with frames in order', async (ctx) => {
  const { response } = await completedOf(ctx, 'videoplaybackannotation', playbackBody());
  const objects = Object.values(response.annotations ?? {});
  await ctx.rule('annotations hold at least one object', () =>
    expectTrue(objects.length > 0, 'response.annotations: expected at least one object'),
  );
  await ctx.rule("objects have the task's label and geometry", () => {
    for (const object of objects) {
      expectEqual(object.label, 'cyclist', 'object label');
      expectEqual(object.geometry, 'box', 'object geometry');
    }
  });
  await ctx.rule('frames of an object are in key order', () => {
    for (const object of objects) {
      const keys = object.frames.map((frame) => frame.key);
      expectTrue(
        keys.every((k, i) => Number.isInteger(k) && k > (keys[i - 1] ?? Number.NEGATIVE_INFINITY)),
        `frame keys in order: ${JSON.stringify(keys)}`,
      );
    }
  });
});

contract('POST /_mock/tasks/{id}/complete refuses a video response whose object changes label', async (ctx) => {
  await ctx.needControlPlane();
  await holdTasksPending(ctx);
  const task = await createOf(ctx, 'videoannotation', videoBody({ attachments: [fresh('a.jpg'), fresh('b.jpg')] }));
  const box = (label: string) => ({
    uuid: 'c0ffee00-0000-4000-8000-0000000000a1',
    type: 'box',
    label,
    attributes: {},
    left: 1,
    top: 1,
    width: 5,
    height: 5,
  });
  const response = { annotations: [{ annotations: [box('car')] }, { annotations: [box('bus')] }] };
  expectErrorBody(await ctx.api.post(`/_mock/tasks/${task.task_id}/complete`, { response }), 400, 'label');
});
