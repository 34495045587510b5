import { leafLabels } from '../domain/common/labels.js';
import type { LidarAnnotationParams, LidarAnnotationResponse } from '../domain/tasks/lidar-annotation-schemas.js';
import { labeledFrames } from '../domain/tasks/lidar-common.js';
import { Rng } from '../runtime/random.js';
import { synthesizeAttributes } from './attributes.js';

/** At most this many tracked objects (one per leaf label) and ground polygons per synthesized sequence. */
const OBJECTS = 3;
const POLYGONS = 2;
/** Range assumed when max_distance_meters is not given. */
const DEFAULT_RANGE_METERS = 60;

/**
 * The uuid the mock gives object `index` of a synthesized lidar task. Derived from the task id alone,
 * so a synthesized lidarlinking task can give its projections the ids of the cuboids they project.
 */
export function lidarObjectUuid(taskId: string, index: number, kind: 'cuboid' | 'polygon' = 'cuboid'): string {
  return new Rng(`${taskId}/${kind}/${index}`).uuid();
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
/** Sizes stay positive whatever meters_per_unit shrinks them to. */
const size = (meters: number, metersPerUnit: number) => Math.max(round6(meters / metersPerUnit), 0.000001);

interface Track {
  uuid: string;
  label: string;
  attributes: Record<string, unknown>;
  start: { x: number; y: number };
  step: { x: number; y: number };
  dims: { x: number; y: number; z: number };
}

/** An object moving in a straight line that stays inside the labeling range over the whole sequence. */
function track(taskId: string, index: number, label: string, params: LidarAnnotationParams, rng: Rng): Track {
  const range = params.max_distance_meters ?? DEFAULT_RANGE_METERS;
  const frames = params.attachments.length;
  const bearing = rng.between(0, 2 * Math.PI);
  const distance = rng.between(0.1, 0.5) * range;
  const heading = rng.between(0, 2 * Math.PI);
  const travel = (rng.between(0, 0.4) * range) / Math.max(frames - 1, 1);
  return {
    uuid: lidarObjectUuid(taskId, index),
    label,
    attributes: synthesizeAttributes(params.annotation_attributes, label, rng),
    start: { x: distance * Math.cos(bearing), y: distance * Math.sin(bearing) },
    step: { x: travel * Math.cos(heading), y: travel * Math.sin(heading) },
    dims: { x: rng.between(3.5, 5), y: rng.between(1.6, 2.1), z: rng.between(1.4, 2) },
  };
}

function cuboidAt(t: Track, frame: number, metersPerUnit: number) {
  const moved = frame - 1;
  return {
    uuid: t.uuid,
    label: t.label,
    attributes: t.attributes,
    position: {
      x: round6((t.start.x + t.step.x * moved) / metersPerUnit),
      y: round6((t.start.y + t.step.y * moved) / metersPerUnit),
      z: round6(t.dims.z / 2 / metersPerUnit),
    },
    dimensions: {
      x: size(t.dims.x, metersPerUnit),
      y: size(t.dims.y, metersPerUnit),
      z: size(t.dims.z, metersPerUnit),
    },
    yaw: round6(Math.atan2(t.step.y, t.step.x)),
  };
}

/** Static ground polygons (z = 0), one per polygon label, present in every labeled frame. */
function polygons(taskId: string, params: LidarAnnotationParams, rng: Rng) {
  const metersPerUnit = params.meters_per_unit ?? 1;
  const labels = (params.polygons_labels ?? leafLabels(params.labels)).slice(0, POLYGONS);
  return labels.map((label, index) => {
    const cx = rng.between(-20, 20);
    const cy = rng.between(-20, 20);
    const corners: [number, number][] = [
      [-3, -3],
      [3, -3],
      [3, 3],
      [-3, 3],
    ];
    return {
      uuid: lidarObjectUuid(taskId, index, 'polygon'),
      label,
      attributes: synthesizeAttributes(params.annotation_attributes, label, rng),
      vertices: corners.map(([dx, dy]) => ({
        x: round6((cx + dx) / metersPerUnit),
        y: round6((cy + dy) / metersPerUnit),
        z: 0,
      })),
    };
  });
}

/** Cuboids on every labeled frame only (labeling_sample_rate), with stable uuids across frames. */
export function synthesizeLidarAnnotation(
  taskId: string,
  params: LidarAnnotationParams,
  rng: Rng,
): LidarAnnotationResponse {
  const metersPerUnit = params.meters_per_unit ?? 1;
  const tracks = leafLabels(params.labels)
    .slice(0, OBJECTS)
    .map((label, index) => track(taskId, index, label, params, rng));
  const rings = params.polygons_enabled ? polygons(taskId, params, rng) : undefined;
  return {
    annotations: labeledFrames(params.attachments.length, params.labeling_sample_rate).map((frame) => ({
      frame_index: frame,
      cuboids: tracks.map((t) => cuboidAt(t, frame, metersPerUnit)),
      ...(rings && { polygons: rings }),
    })),
  };
}
