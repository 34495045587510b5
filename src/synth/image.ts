import type { AnnotationAttributes } from '../domain/tasks/attributes.js';
import {
  type Geometries,
  type GeometryKind,
  geometryLeafLabels,
  hasCameraModel,
  requestedKinds,
} from '../domain/tasks/geometries.js';
import {
  CUBOID_EDGE_DESCRIPTIONS,
  type CUBOID_VERTEX_DESCRIPTIONS,
  type ImageAnnotation,
  type ImageAnnotationResponse,
} from '../domain/tasks/image-annotations.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeAttributes } from './attributes.js';

/** The canvas synthesized shapes are placed on; attachments are not downloaded, so a size is assumed. */
const CANVAS = { width: 1000, height: 800 };
/** At most this many annotations per geometry kind, one per leaf label. */
const LABELS_PER_KIND = 3;

interface Params {
  geometries: Geometries;
  annotation_attributes?: AnnotationAttributes;
}

/** A valid, deterministic image response: one shape per requested kind and leaf label. */
export function synthesizeImageResponse(params: Params, rng: Rng): ImageAnnotationResponse {
  const annotations: ImageAnnotation[] = [];
  for (const kind of requestedKinds(params.geometries)) {
    for (const label of geometryLeafLabels(params.geometries, kind).slice(0, LABELS_PER_KIND)) {
      const base = {
        uuid: rng.uuid(),
        label,
        attributes: synthesizeAttributes(params.annotation_attributes, label, rng),
      };
      annotations.push(annotationFor(kind, base, params.geometries, rng));
    }
  }
  return { annotations };
}

type Base = Pick<ImageAnnotation, 'uuid' | 'label' | 'attributes'>;
type Point2 = readonly [number, number];

function annotationFor(kind: GeometryKind, base: Base, geometries: Geometries, rng: Rng): ImageAnnotation {
  switch (kind) {
    case 'box':
      return { ...base, ...box(geometries.box ?? {}, rng) };
    case 'polygon':
      return { ...base, type: 'polygon', vertices: ring(vertexCount(geometries.polygon, 3, 6), rng) };
    case 'line':
      // Lines are shown with type polygon in responses.
      return { ...base, type: 'polygon', vertices: polyline(vertexCount(geometries.line, 2, 3), rng) };
    case 'ellipse':
      // Ellipses are shown with type polygon and their 4 extremal vertices.
      return { ...base, type: 'polygon', vertices: ring(4, rng) };
    case 'point':
      return { ...base, type: 'point', x: rng.between(0, CANVAS.width), y: rng.between(0, CANVAS.height) };
    case 'cuboid':
      return { ...base, ...cuboid(geometries, rng) };
  }
}

function vertexCount(
  settings: { min_vertices?: number; max_vertices?: number } | undefined,
  floor: number,
  preferred: number,
): number {
  const min = Math.max(settings?.min_vertices ?? floor, 1);
  const max = settings?.max_vertices ?? Math.max(min, preferred);
  return Math.min(Math.max(min, preferred), max);
}

function box(
  settings: { min_width?: number; min_height?: number; can_rotate?: boolean; integer_pixels?: boolean },
  rng: Rng,
) {
  const round = (v: number) => (settings.integer_pixels ? Math.round(v) : v);
  const width = round(Math.max(settings.min_width ?? 0, rng.between(40, 200)));
  const height = round(Math.max(settings.min_height ?? 0, rng.between(40, 200)));
  const left = round(rng.between(0, Math.max(1, CANVAS.width - width)));
  const top = round(rng.between(0, Math.max(1, CANVAS.height - height)));
  if (!settings.can_rotate) return { type: 'box' as const, left, top, width, height };
  const rotation = rng.between(0, 1.5);
  const cx = left + width / 2;
  const cy = top + height / 2;
  const corners: Point2[] = [
    [-width / 2, -height / 2],
    [width / 2, -height / 2],
    [width / 2, height / 2],
    [-width / 2, height / 2],
  ];
  // Clockwise rotation in image coordinates (y grows downwards).
  const vertices = corners.map(([dx, dy]) => ({
    x: round2(cx + dx * Math.cos(rotation) - dy * Math.sin(rotation)),
    y: round2(cy + dx * Math.sin(rotation) + dy * Math.cos(rotation)),
  }));
  return { type: 'box' as const, left, top, width, height, rotation, vertices };
}

function ring(count: number, rng: Rng) {
  const cx = rng.between(200, CANVAS.width - 200);
  const cy = rng.between(200, CANVAS.height - 200);
  const radius = rng.between(40, 150);
  return Array.from({ length: count }, (_, i) => {
    const angle = (2 * Math.PI * i) / count;
    return { x: round2(cx + radius * Math.cos(angle)), y: round2(cy + radius * Math.sin(angle)) };
  });
}

function polyline(count: number, rng: Rng) {
  const x0 = rng.between(50, 400);
  const y0 = rng.between(50, 700);
  return Array.from({ length: count }, (_, i) => ({ x: round2(x0 + i * 80), y: round2(y0 + rng.between(-30, 30)) }));
}

function cuboid(geometries: Geometries, rng: Rng) {
  const left = rng.between(100, 500);
  const top = rng.between(100, 400);
  const w = rng.between(80, 200);
  const h = rng.between(60, 160);
  const depth = rng.between(30, 80);
  const face: Record<'tl' | 'bl' | 'tr' | 'br', Point2> = {
    tl: [left, top],
    bl: [left, top + h],
    tr: [left + w, top],
    br: [left + w, top + h],
  };
  const side: Record<'top' | 'bottom', Point2> = {
    top: [left + w + depth, top - depth / 2],
    bottom: [left + w + depth, top + h - depth / 2],
  };
  const vertex = (p: Point2, description: (typeof CUBOID_VERTEX_DESCRIPTIONS)[number]) => ({
    x: round2(p[0]),
    y: round2(p[1]),
    type: 'vertex' as const,
    description,
  });
  const edge = (a: Point2, b: Point2, description: string) => ({
    x1: round2(a[0]),
    y1: round2(a[1]),
    x2: round2(b[0]),
    y2: round2(b[1]),
    type: 'edge' as const,
    description,
  });
  const segments: Record<(typeof CUBOID_EDGE_DESCRIPTIONS)[number], [Point2, Point2]> = {
    'face-top': [face.tl, face.tr],
    'face-right': [face.tr, face.br],
    'face-bottom': [face.bl, face.br],
    'face-left': [face.tl, face.bl],
    'side-top': [face.tr, side.top],
    'side-bottom': [face.br, side.bottom],
  };
  const shape = {
    type: 'cuboid' as const,
    vertices: [
      vertex(face.tl, 'face-topleft'),
      vertex(face.bl, 'face-bottomleft'),
      vertex(face.tr, 'face-topright'),
      vertex(face.br, 'face-bottomright'),
      vertex(side.top, 'side-topcorner'),
      vertex(side.bottom, 'side-bottomcorner'),
    ],
    edges: CUBOID_EDGE_DESCRIPTIONS.map((description) => edge(...segments[description], description)),
  };
  return hasCameraModel(geometries) ? { ...shape, ...projectedCorners(geometries, rng) } : shape;
}

/**
 * points_3d: a car-sized box in front of the camera (camera frame: x right, y down, z forward);
 * points_2d: the same corners through the pinhole model of camera_intrinsics.
 * Order: front-top-left, front-top-right, back-top-right, back-top-left, then the bottom four alike.
 */
function projectedCorners(geometries: Geometries, rng: Rng) {
  const k = geometries.cuboid?.camera_intrinsics;
  // Called only when hasCameraModel holds, so the intrinsics are there.
  if (!k) return {};
  const scale = k.scalefactor ?? k.scale_factor ?? 1;
  const x = rng.between(-3, 3);
  const z = rng.between(8, 25);
  const ground = geometries.cuboid?.camera_height ?? 1.5;
  const [w, h, l] = [1.8, 1.5, 4.2];
  const corners3d: [number, number, number][] = [
    [x, ground - h, z],
    [x + w, ground - h, z],
    [x + w, ground - h, z + l],
    [x, ground - h, z + l],
    [x, ground, z],
    [x + w, ground, z],
    [x + w, ground, z + l],
    [x, ground, z + l],
  ];
  return {
    points_3d: corners3d.map(([px, py, pz]) => ({ x: round2(px), y: round2(py), z: round2(pz) })),
    points_2d: corners3d.map(([px, py, pz]) => ({
      x: round2((k.fx * (px / pz) + (k.skew ?? 0) * (py / pz) + k.cx) / scale),
      y: round2((k.fy * (py / pz) + k.cy) / scale),
    })),
  };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
