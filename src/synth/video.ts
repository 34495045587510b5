import { type Geometries, type GeometryKind, geometryLeafLabels } from '../domain/tasks/geometries.js';
import type { ImageAnnotation } from '../domain/tasks/image-annotations.js';
import type { VideoEvent, VideoParams } from '../domain/tasks/video-common.js';
import type { VideoAnnotationResponse } from '../domain/tasks/video-frames.js';
import type { VideoPlaybackResponse } from '../domain/tasks/video-playback.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeImageResponse } from './image.js';

/** A video file is never read, so its length is unknown: without duration_time this many frames are made. */
const DEFAULT_VIDEO_FRAMES = 5;
/** Long videos are cut short: a synthesized response stays small. */
const MAX_VIDEO_FRAMES = 10;
const MAX_EVENTS = 3;

interface TrackedObject {
  annotation: ImageAnnotation;
  /** Pixels moved per frame; integers, so integer_pixels boxes stay integral. */
  dx: number;
  dy: number;
}

/** videoannotation: one frame per image attachment (or per sampled video frame), the same objects moving slightly. */
export function synthesizeVideoFrames(params: VideoParams, rng: Rng): VideoAnnotationResponse {
  const objects = trackedObjects(params, rng);
  const count = frameCount(params);
  const annotations = Array.from({ length: count }, (_, f) => ({
    annotations: objects.map((o) => moved(o.annotation, o.dx * f, o.dy * f)),
  }));
  const events = synthesizeEvents(params, count);
  return { annotations, ...(events.length > 0 && { events }) };
}

/** videoplaybackannotation: the same objects, keyed by uuid, each with one entry per annotated frame. */
export function synthesizePlayback(params: VideoParams, rng: Rng): VideoPlaybackResponse {
  const count = frameCount(params);
  const annotations: VideoPlaybackResponse['annotations'] = {};
  for (const { annotation, dx, dy } of trackedObjects(params, rng)) {
    const frames = Array.from({ length: count }, (_, f) => {
      const { uuid: _uuid, label: _label, type: _type, attributes, ...fields } = moved(annotation, dx * f, dy * f);
      return { key: f, timestamp: frameTime(params, f), attributes, ...fields };
    });
    annotations[annotation.uuid] = {
      label: annotation.label,
      geometry: geometryOf(params.geometries, annotation),
      frames,
    };
  }
  const events = synthesizeEvents(params, count);
  return { annotations, ...(events.length > 0 && { events }) };
}

/** Image frames are the attachments; a video is sampled at frame_rate over duration_time, capped. */
function frameCount(params: VideoParams): number {
  if (params.attachment_type !== 'video' && Array.isArray(params.attachments)) return params.attachments.length;
  if (params.duration_time === undefined) return DEFAULT_VIDEO_FRAMES;
  return Math.min(MAX_VIDEO_FRAMES, Math.max(1, Math.ceil(params.duration_time * (params.frame_rate ?? 1))));
}

const frameTime = (params: VideoParams, frame: number) =>
  Math.round(((params.start_time ?? 0) + frame / (params.frame_rate ?? 1)) * 1000) / 1000;

function trackedObjects(params: VideoParams, rng: Rng): TrackedObject[] {
  return synthesizeImageResponse(params, rng).annotations.map((annotation) => ({
    annotation,
    dx: rng.int(-6, 6),
    dy: rng.int(-4, 4),
  }));
}

/** The first few events of events_to_annotate: alternately a range to the last frame and a single-frame point. */
function synthesizeEvents(params: VideoParams, count: number): VideoEvent[] {
  return (params.events_to_annotate ?? []).slice(0, MAX_EVENTS).map((label, i) => {
    const start = Math.min(i, count - 1);
    const point = { label, type: 'point' as const, start, startTime: frameTime(params, start) };
    if (i % 2 === 1 || start === count - 1) return point;
    return { ...point, type: 'range' as const, end: count - 1, endTime: frameTime(params, count - 1) };
  });
}

/** Image responses show lines and ellipses as polygons; the playback format names the geometry the label came from. */
function geometryOf(geometries: Geometries, annotation: ImageAnnotation): GeometryKind {
  if (annotation.type !== 'polygon') return annotation.type;
  const kinds: GeometryKind[] = ['polygon', 'line', 'ellipse'];
  return kinds.find((kind) => geometryLeafLabels(geometries, kind).includes(annotation.label)) ?? 'polygon';
}

/** The annotation shifted by (dx, dy). Camera-model points (points_2d/3d) stay put: no 3D motion is simulated. */
function moved(annotation: ImageAnnotation, dx: number, dy: number): ImageAnnotation {
  const p = <T extends { x: number; y: number }>(v: T): T => ({ ...v, x: round2(v.x + dx), y: round2(v.y + dy) });
  switch (annotation.type) {
    case 'box':
      return {
        ...annotation,
        left: round2(annotation.left + dx),
        top: round2(annotation.top + dy),
        ...(annotation.vertices && { vertices: annotation.vertices.map(p) }),
      };
    case 'point':
      return p(annotation);
    case 'cuboid': {
      const edges = annotation.edges?.map((e) => ({
        ...e,
        x1: round2(e.x1 + dx),
        y1: round2(e.y1 + dy),
        x2: round2(e.x2 + dx),
        y2: round2(e.y2 + dy),
      }));
      return { ...annotation, vertices: annotation.vertices.map(p), ...(edges && { edges }) };
    }
    default:
      return { ...annotation, vertices: annotation.vertices.map(p) };
  }
}

const round2 = (v: number) => Math.round(v * 100) / 100;
