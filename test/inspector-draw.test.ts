import { describe, expect, it } from 'vitest';
import { fixture } from '../src/fixtures.js';
import { makeApp, type TestApp, withResultFile } from './helpers.js';

/**
 * The inspector's drawings of a response (inspector/draw*.mjs), tested without a browser: the structure of each
 * SVG against the response it was drawn from, synthesized by labelmock or given here.
 */

interface Tree {
  tag: string;
  attrs: Record<string, string | number>;
  children: (Tree | string)[];
}
interface Legend {
  label: string;
  colour: string;
  count: number;
}
interface Drawing {
  svg: Tree;
  legend: Legend[];
  skipped: number;
}
type Annotations = { annotations: any[] };
const load = async (name: string) => import(new URL(`../inspector/${name}`, import.meta.url).href);
const draw = (await load('draw.mjs')) as {
  drawImageResponse(response: unknown, options?: Record<string, unknown>): Drawing;
  svgText(tree: Tree): string;
};
const frames = (await load('draw-frames.mjs')) as {
  videoFrames(response: unknown): { frames: ({ name: string } & Annotations)[]; events: unknown[] };
  projectionFrames(response: unknown): ({ name: string } & Annotations)[];
  drawLidarFrame(response: unknown, at: number): { svg: Tree; legend: Legend[]; frames: number; frameIndex: number };
};
const text = (await load('draw-text.mjs')) as {
  markSpans(
    text: string,
    response: unknown,
  ): {
    pieces: { text: string; spans: { id: string; label: string; className: string }[] }[];
    legend: (Legend & { className: string })[];
    relationships: { name: string; source: string; target: string }[];
    skipped: number;
  };
};

const elements = (tree: Tree) => tree.children.filter((child): child is Tree => typeof child !== 'string');
/** A layer's shapes (`response` or `hypothesis`). */
const layer = (drawing: { svg: Tree }, name = 'response') =>
  elements(elements(drawing.svg).find((child) => child.attrs['data-layer'] === name) as Tree);
const pointsOf = (vertices: { x: number; y: number }[]) => vertices.map((v) => `${v.x},${v.y}`).join(' ');

/** A task of `type` from its committed fixture, completed by the control plane (its synthesized response). */
async function synthesized(
  t: TestApp,
  type: string,
  overrides = {},
): Promise<{ task_id: string; params: any; response: any }> {
  const body = {
    ...fixture<Record<string, unknown>>(`tasks/${type}.create.json`),
    callback_url: undefined,
    ...overrides,
  };
  const created = await t.call('POST', `/v1/task/${type}`, { body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const done = await t.call('POST', `/_mock/tasks/${created.body.task_id}/complete`);
  expect(done.status).toBe(200);
  return withResultFile(t, done.body);
}

/** Checks one drawn shape against the annotation it came from. */
function expectDrawn(shape: Tree, annotation: any): void {
  expect(shape.attrs['data-label']).toBe(annotation.label);
  if (annotation.type === 'box' && annotation.vertices) expect(shape.attrs.points).toBe(pointsOf(annotation.vertices));
  else if (annotation.type === 'box')
    expect(shape.attrs).toMatchObject({ x: annotation.left, y: annotation.top, width: annotation.width });
  else if (['polygon', 'line', 'ellipse'].includes(annotation.type))
    expect(shape.attrs.points).toBe(pointsOf(annotation.vertices));
  else if (annotation.type === 'point') expect(shape.attrs).toMatchObject({ cx: annotation.x, cy: annotation.y });
  else if (annotation.type === 'cuboid') {
    const lines = elements(shape).filter((c) => c.tag === 'line');
    expect(lines.map((l) => [l.attrs.x1, l.attrs.y1, l.attrs.x2, l.attrs.y2])).toEqual(
      annotation.edges.map((e: Record<string, number>) => [e.x1, e.y1, e.x2, e.y2]),
    );
  } else throw new Error(`an annotation of type ${annotation.type} was not checked`);
}

describe('inspector drawing: images', () => {
  it('draws each geometry of a synthesized image response at the coordinates the response holds', async () => {
    const t = makeApp();
    const geometries = {
      box: { objects_to_annotate: ['car'] },
      polygon: { objects_to_annotate: ['lane'] },
      line: { objects_to_annotate: ['curb'] },
      point: { objects_to_annotate: ['light'] },
      cuboid: { objects_to_annotate: ['truck'] },
    };
    const created = await t.call('POST', '/v1/task/imageannotation', {
      body: { attachment: 'https://example.com/a.jpg', geometries },
    });
    const done = await t.call('POST', `/_mock/tasks/${created.body.task_id}/complete`);
    const { annotations } = done.body.response;
    const drawing = draw.drawImageResponse(done.body.response);
    expect(drawing.skipped).toBe(0);
    expect(drawing.legend.map((entry) => [entry.label, entry.count])).toEqual(
      annotations.map((a: { label: string }) => [a.label, 1]),
    );
    const shapes = layer(drawing);
    expect(shapes).toHaveLength(annotations.length);
    for (const [i, annotation] of annotations.entries()) expectDrawn(shapes[i] as Tree, annotation);
    expect(new Set(annotations.map((a: { type: string }) => a.type))).toEqual(
      new Set(['box', 'polygon', 'point', 'cuboid']),
    );
  });

  it('a given response: rotated box, ellipse, line; an unknown kind counted; the canvas grown; text escaped', () => {
    const response = {
      annotations: [
        {
          type: 'box',
          label: '<b>car</b>',
          left: 1,
          top: 2,
          width: 3,
          height: 4,
          vertices: [
            { x: 0, y: 0 },
            { x: 4, y: 1 },
            { x: 3, y: 5 },
            { x: -1, y: 4 },
          ],
        },
        { type: 'ellipse', label: 'wheel', vertices: [{ x: 1500, y: 10 }] },
        {
          type: 'line',
          label: 'curb',
          vertices: [
            { x: 1, y: 1 },
            { x: 2, y: 3 },
          ],
        },
        { type: 'hologram', label: 'x' },
      ],
    };
    const sized = draw.drawImageResponse(response, { size: { width: 10, height: 8 } });
    expect(sized.skipped).toBe(1);
    expect(layer(sized).map((shape) => [shape.attrs['data-kind'], shape.attrs.points])).toEqual([
      ['box', '0,0 4,1 3,5 -1,4'],
      ['ellipse', '1500,10'],
      ['line', '1,1 2,3'],
    ]);
    expect(layer(sized)[2]?.tag).toBe('polyline');
    const text = draw.svgText(sized.svg);
    expect(text).toContain('viewBox="0 0 10 8"');
    expect(text).toContain('<title>&lt;b&gt;car&lt;/b&gt; (box)</title>');
    expect(text).not.toContain('<b>');
    // Without the image's size, the canvas holds every shape: x from -1 to 1500, y from 0 to 800.
    expect(draw.drawImageResponse(response).svg.attrs.viewBox).toBe('-1 0 1501 800');
  });

  it('a hypothesis is its own dashed layer under the response, an image its own element under both', () => {
    const box = (label: string, left: number) => ({
      type: 'box',
      uuid: label,
      label,
      left,
      top: 5,
      width: 9,
      height: 9,
    });
    const drawing = draw.drawImageResponse(
      { annotations: [box('car', 10)] },
      {
        hypothesis: { annotations: [box('car', 20), box('bus', 40)] },
        image: 'blob:x',
        size: { width: 64, height: 48 },
      },
    );
    expect(elements(drawing.svg).map((child) => child.attrs['data-layer'] ?? child.tag)).toEqual([
      'rect',
      'image',
      'hypothesis',
      'response',
    ]);
    expect(layer(drawing, 'hypothesis').map((shape) => [shape.attrs.x, shape.attrs['stroke-dasharray']])).toEqual([
      [20, '6 4'],
      [40, '6 4'],
    ]);
    expect(layer(drawing).map((shape) => shape.attrs['stroke-dasharray'])).toEqual([undefined]);
    // One colour per label across both layers.
    expect(layer(drawing, 'hypothesis')[0]?.attrs.stroke).toBe(layer(drawing)[0]?.attrs.stroke);
    expect(drawing.legend.map((entry) => [entry.label, entry.count])).toEqual([
      ['car', 2],
      ['bus', 1],
    ]);
  });
});

describe('inspector drawing: frames', () => {
  it('a synthesized videoannotation: one picture per frame, each shape where its frame has it', async () => {
    const { params, response } = await synthesized(makeApp(), 'videoannotation');
    const { frames: drawn, events } = frames.videoFrames(response);
    expect(drawn).toHaveLength(params.attachments.length);
    expect(events).toEqual(response.events ?? []);
    drawn.forEach((frame, i) => {
      expect(frame.annotations).toEqual(response.annotations[i].annotations);
      const shapes = layer(draw.drawImageResponse(frame));
      for (const [j, annotation] of frame.annotations.entries()) expectDrawn(shapes[j] as Tree, annotation);
    });
  });

  it('a synthesized videoplaybackannotation: objects by uuid turned into frames by key', async () => {
    const { response } = await synthesized(makeApp(), 'videoplaybackannotation');
    const objects = Object.entries(response.annotations) as [string, any][];
    const { frames: drawn } = frames.videoFrames(response);
    const keys = [...new Set(objects.flatMap(([, object]) => object.frames.map((f: { key: number }) => f.key)))];
    expect(drawn.map((frame) => frame.name)).toEqual(keys.sort((a, b) => a - b).map((key) => `frame ${key}`));
    for (const [uuid, object] of objects)
      for (const frame of object.frames) {
        const at = drawn.find((f) => f.name === `frame ${frame.key}`) as Annotations;
        const placed = at.annotations.find((a) => a.uuid === uuid);
        expect(placed).toMatchObject({ label: object.label, left: frame.left, top: frame.top });
        const geometry = object.geometry === 'box' ? 'box' : object.geometry;
        const shape = layer(draw.drawImageResponse(at)).find((s) => s.attrs['data-label'] === object.label);
        expect(shape?.attrs['data-kind']).toBe(geometry);
      }
  });

  it('a synthesized lidarlinking: a picture per frame and camera, each holding its projections', async () => {
    const t = makeApp();
    const lidar = await synthesized(t, 'lidarannotation');
    const { response } = await synthesized(t, 'lidarlinking', { lidar_task: lidar.task_id });
    const views = frames.projectionFrames(response);
    const expected = new Map<string, unknown[]>();
    for (const a of response.annotations) {
      const name = `frame ${a.frame_index} · camera ${a.camera_id}`;
      expected.set(name, [...(expected.get(name) ?? []), a]);
    }
    expect(new Map(views.map((view) => [view.name, view.annotations]))).toEqual(expected);
    for (const view of views) expect(layer(draw.drawImageResponse(view))).toHaveLength(view.annotations.length);
  });

  it('a synthesized lidar sequence from above: each cuboid a footprint about its position, turned by yaw', async () => {
    const { response } = await synthesized(makeApp(), 'lidarannotation');
    expect(response.annotations.length).toBeGreaterThan(1);
    response.annotations.forEach((frame: any, at: number) => {
      const drawn = frames.drawLidarFrame(response, at);
      expect([drawn.frames, drawn.frameIndex]).toEqual([response.annotations.length, frame.frame_index]);
      const cuboids = elements(drawn.svg).filter((child) => child.attrs['data-kind'] === 'cuboid');
      expect(cuboids.map((c) => c.attrs['data-label'])).toEqual(frame.cuboids.map((c: any) => c.label));
      cuboids.forEach((group, i) => {
        const { position, dimensions, yaw } = frame.cuboids[i];
        const corners = String(elements(group)[0]?.attrs.points)
          .split(' ')
          .map((pair) => pair.split(',').map(Number) as [number, number]);
        // The centre is the position (y drawn upward), one side is the length along the heading.
        const centre = corners.reduce(([x, y], [cx, cy]) => [x + cx / 4, y + cy / 4], [0, 0]);
        expect(centre[0]).toBeCloseTo(position.x, 6);
        expect(centre[1]).toBeCloseTo(-position.y, 6);
        const [a, b] = corners as [[number, number], [number, number]];
        expect(Math.hypot(a[0] - b[0], a[1] - b[1])).toBeCloseTo(dimensions.y, 6);
        const heading = elements(group)[1]?.attrs as { x1: number; y1: number; x2: number; y2: number };
        expect(Math.atan2(-(heading.y2 - heading.y1), heading.x2 - heading.x1)).toBeCloseTo(yaw, 6);
      });
      const polygons = elements(drawn.svg).filter((child) => child.attrs['data-kind'] === 'polygon');
      expect(polygons).toHaveLength(frame.polygons?.length ?? 0);
    });
    // The view holds the whole sequence, so it stays still from frame to frame.
    const boxes = response.annotations.map(
      (_: unknown, at: number) => frames.drawLidarFrame(response, at).svg.attrs.viewBox,
    );
    expect(new Set(boxes).size).toBe(1);
  });
});

describe('inspector drawing: given frames', () => {
  it("a given videoannotation: a frame without annotations is a frame still, a frame's shapes are its own", () => {
    const box = (left: number) => ({ type: 'box', uuid: 'c1', label: 'car', left, top: 10, width: 20, height: 10 });
    const response = { annotations: [{ annotations: [box(5)] }, { annotations: [] }, { annotations: [box(9)] }] };
    const { frames: drawn } = frames.videoFrames(response);
    expect(drawn.map((frame) => [frame.name, frame.annotations.length])).toEqual([
      ['frame 0', 1],
      ['frame 1', 0],
      ['frame 2', 1],
    ]);
    expect(layer(draw.drawImageResponse(drawn[2])).map((shape) => shape.attrs.x)).toEqual([9]);
  });

  it('a given lidar cuboid turned a quarter: its footprint is its width along x and its length along y', () => {
    const cuboid = {
      uuid: 'c1',
      label: 'car',
      position: { x: 10, y: 0, z: 1 },
      dimensions: { x: 4, y: 2, z: 1.5 },
      yaw: Math.PI / 2,
    };
    const response = { annotations: [{ frame_index: 1, cuboids: [cuboid] }] };
    const drawn = frames.drawLidarFrame(response, 0);
    const group = elements(drawn.svg).find((child) => child.attrs['data-kind'] === 'cuboid') as Tree;
    const corners = String(elements(group)[0]?.attrs.points)
      .split(' ')
      .map((pair) => pair.split(',').map((n) => Math.round(Number(n) * 1e9) / 1e9 + 0) as [number, number]);
    // x from 9 to 11 (the width), y from -2 to 2 (the length), drawn with y upward.
    expect(corners.map(([x]) => x).sort((a, b) => a - b)).toEqual([9, 9, 11, 11]);
    expect(corners.map(([, y]) => y).sort((a, b) => a - b)).toEqual([-2, -2, 2, 2]);
    expect(drawn.legend).toEqual([{ label: 'car', colour: expect.any(String), count: 1 }]);
  });
});

describe('inspector drawing: text', () => {
  it('a synthesized NER response: the text cut at each span, every span marked over its own words', async () => {
    const { params, response } = await synthesized(makeApp(), 'namedentityrecognition');
    const marked = text.markSpans(params.text, response);
    expect(marked.pieces.map((piece) => piece.text).join('')).toBe(params.text);
    expect(marked.skipped).toBe(0);
    for (const span of response.annotations) {
      const covered = marked.pieces.filter((piece) => piece.spans.some((s) => s.id === span.id));
      expect(covered.map((piece) => piece.text).join('')).toBe(span.text);
    }
    expect(marked.relationships).toEqual(
      response.relationships.map((r: any) => ({
        name: r.name,
        source: response.annotations.find((a: any) => a.id === r.source_ref).text,
        target: response.annotations.find((a: any) => a.id === r.target_ref).text,
      })),
    );
  });

  it('given overlapping spans: the overlap carries both, a span past the text is counted and not drawn', () => {
    const marked = text.markSpans('Ada Lovelace, London', {
      annotations: [
        { id: 'a', start: 0, end: 12, text: 'Ada Lovelace', label: 'PERSON' },
        { id: 'b', start: 4, end: 12, text: 'Lovelace', label: 'FAMILY' },
        { id: 'c', start: 14, end: 20, text: 'London', label: 'PLACE' },
        { id: 'd', start: 18, end: 99, text: '?', label: 'PLACE' },
      ],
    });
    expect(marked.pieces.map((piece) => [piece.text, piece.spans.map((s) => s.id).join('+')])).toEqual([
      ['Ada ', 'a'],
      ['Lovelace', 'a+b'],
      [', ', ''],
      ['London', 'c'],
    ]);
    expect(marked.skipped).toBe(1);
    expect(marked.legend.map((entry) => [entry.label, entry.className, entry.count])).toEqual([
      ['PERSON', 'mark-0', 1],
      ['FAMILY', 'mark-1', 1],
      ['PLACE', 'mark-2', 1],
    ]);
  });
});
