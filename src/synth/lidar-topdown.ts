import type { Geometries } from '../domain/tasks/geometries.js';
import { TOP_DOWN_KINDS } from '../domain/tasks/lidar-common.js';
import type { LidarTopDownCreate } from '../domain/tasks/types/lidartopdown.js';
import { synthesizeImageResponse } from './image.js';
import type { Rng } from './random.js';

/**
 * Top-down shapes are the image shapes of the same kinds, drawn on the rendered top-down canvas.
 * Unlike image responses, lines keep type "line": in a top-down view lanes and boundaries are
 * mostly lines, and a reader must tell them from area polygons.
 */
export function synthesizeTopDown(params: LidarTopDownCreate, rng: Rng) {
  const geometries = params.geometries as Geometries;
  const annotations = TOP_DOWN_KINDS.filter((kind) => geometries[kind] !== undefined).flatMap((kind) =>
    synthesizeImageResponse(
      { geometries: { [kind]: geometries[kind] }, annotation_attributes: params.annotation_attributes },
      rng,
    ).annotations.map((annotation) => (kind === 'line' ? { ...annotation, type: 'line' as const } : annotation)),
  );
  return { annotations };
}
