// Responses with frames: a video's (each frame an image response), a lidar task's projections (one picture per
// frame and camera) and a lidar sequence's cuboids, seen from above. Pure, like draw.mjs: each answers the frames
// as data, and a frame's drawing as a tree.
import { finite, labelColours, node, titleOf } from './draw.mjs';

const isRecord = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value) => (Array.isArray(value) ? value : []);

/**
 * A video response as frames of image annotations: videoannotation's `annotations` is one `{ annotations }` per
 * frame; videoplaybackannotation's is keyed by object uuid, each with its frames (`key` the frame's index), and
 * is turned around here so each frame holds the objects seen on it. `events` are the response's, as given.
 */
export function videoFrames(response) {
  const events = list(response?.events);
  if (Array.isArray(response?.annotations))
    return {
      frames: response.annotations.map((frame, index) => ({
        name: `frame ${index}`,
        annotations: list(frame?.annotations),
      })),
      events,
    };
  if (!isRecord(response?.annotations)) return { frames: [], events };
  const byKey = new Map();
  for (const [uuid, object] of Object.entries(response.annotations)) {
    if (!isRecord(object)) continue;
    // Lines and ellipses are stored as polygons' vertices; the object's geometry says which it is.
    const type = object.geometry ?? 'box';
    for (const frame of list(object.frames)) {
      if (!isRecord(frame) || typeof frame.key !== 'number') continue;
      if (!byKey.has(frame.key)) byKey.set(frame.key, []);
      byKey.get(frame.key).push({ ...frame, uuid, label: object.label, type });
    }
  }
  const keys = [...byKey.keys()].sort((a, b) => a - b);
  return { frames: keys.map((key) => ({ name: `frame ${key}`, annotations: byKey.get(key) })), events };
}

/** A lidarlinking response's projections, one picture per frame and camera, in that order. */
export function projectionFrames(response) {
  const byView = new Map();
  for (const annotation of list(response?.annotations)) {
    const view = `frame ${annotation?.frame_index} · camera ${annotation?.camera_id}`;
    if (!byView.has(view))
      byView.set(view, { frame: annotation?.frame_index, camera: String(annotation?.camera_id), annotations: [] });
    byView.get(view).annotations.push(annotation);
  }
  return [...byView]
    .sort(([, a], [, b]) => a.frame - b.frame || a.camera.localeCompare(b.camera))
    .map(([name, { annotations }]) => ({ name, annotations }));
}

/** A cuboid's footprint seen from above: its four corners, turned by its yaw about its centre. */
function footprint({ position, dimensions, yaw = 0 }) {
  const [cos, sin] = [Math.cos(yaw), Math.sin(yaw)];
  const corners = [
    [1, 1],
    [1, -1],
    [-1, -1],
    [-1, 1],
  ];
  return corners.map(([sx, sy]) => {
    const [dx, dy] = [(sx * dimensions.x) / 2, (sy * dimensions.y) / 2];
    return { x: position.x + dx * cos - dy * sin, y: position.y + dx * sin + dy * cos };
  });
}

const drawableCuboid = (cuboid) =>
  isRecord(cuboid) && finite(cuboid.position?.x) && finite(cuboid.position?.y) && finite(cuboid.dimensions?.x);

/** What a lidar response's frames place, over the whole sequence: the view stays still while frames change. */
function sceneBox(frames) {
  let [minX, minY, maxX, maxY] = [-10, -10, 10, 10];
  for (const frame of frames) {
    const outlines = [
      ...list(frame?.cuboids).filter(drawableCuboid).map(footprint),
      ...list(frame?.polygons).map((polygon) => list(polygon?.vertices)),
    ];
    for (const { x, y } of outlines.flat()) {
      if (!finite(x) || !finite(y)) continue;
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
    }
  }
  const margin = Math.max(maxX - minX, maxY - minY) * 0.05;
  return { minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin };
}

/**
 * One frame of a lidarannotation response seen from above: each cuboid's footprint (a heading line from its
 * centre shows its yaw), the ground polygons, and the sensor at the origin. The world's y grows up the picture.
 * `frameAt` is the position in `annotations`, whose `frame_index` names the frame.
 */
export function drawLidarFrame(response, frameAt, colours = labelColours()) {
  const frames = list(response?.annotations);
  const box = sceneBox(frames);
  const frame = frames[frameAt] ?? {};
  const width = box.maxX - box.minX;
  const height = box.maxY - box.minY;
  const stroke = width / 400;
  const flip = ({ x, y }) => `${x},${-y}`;
  const shapes = [];
  for (const polygon of list(frame.polygons)) {
    const label = polygon?.label ?? '(no label)';
    const colour = colours.colour(label);
    const vertices = list(polygon?.vertices).filter((v) => finite(v?.x) && finite(v?.y));
    const attrs = { points: vertices.map(flip).join(' '), fill: colour, 'fill-opacity': 0.25 };
    shapes.push(
      node('polygon', { 'data-kind': 'polygon', 'data-label': label, ...attrs }, [
        titleOf({ ...polygon, label }, 'ground polygon'),
      ]),
    );
    colours.count(label);
  }
  for (const cuboid of list(frame.cuboids).filter(drawableCuboid)) {
    const label = cuboid.label ?? '(no label)';
    const colour = colours.colour(label);
    const { position, dimensions, yaw = 0 } = cuboid;
    const heading = {
      x: position.x + (Math.cos(yaw) * dimensions.x) / 2,
      y: position.y + (Math.sin(yaw) * dimensions.x) / 2,
    };
    shapes.push(
      node('g', { 'data-kind': 'cuboid', 'data-label': label }, [
        node('polygon', {
          points: footprint(cuboid).map(flip).join(' '),
          stroke: colour,
          fill: 'none',
          'stroke-width': stroke * 2,
        }),
        node('line', {
          x1: position.x,
          y1: -position.y,
          x2: heading.x,
          y2: -heading.y,
          stroke: colour,
          'stroke-width': stroke,
        }),
        titleOf(cuboid, 'cuboid'),
      ]),
    );
    colours.count(label);
  }
  const sensor = node('circle', { cx: 0, cy: 0, r: stroke * 4, fill: '#1d2330', 'data-kind': 'sensor' }, [
    node('title', {}, ['the sensor (0, 0)']),
  ]);
  const svg = node(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      viewBox: `${box.minX} ${-box.maxY} ${width} ${height}`,
      class: 'drawing',
    },
    [node('rect', { x: box.minX, y: -box.maxY, width, height, fill: '#f4f4f4' }), sensor, ...shapes],
  );
  return { svg, legend: colours.legend(), frames: frames.length, frameIndex: frame.frame_index };
}
