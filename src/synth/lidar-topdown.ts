import type { AnnotationAttributes } from '../domain/tasks/attributes.js';
import type { Geometries } from '../domain/tasks/geometries.js';
import type { ImageAnnotation } from '../domain/tasks/image-annotations.js';
import { TOP_DOWN_KINDS } from '../domain/tasks/lidar-common.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeImageResponse } from './image.js';

type TopDownKind = (typeof TOP_DOWN_KINDS)[number];
type TopDownShape = Extract<ImageAnnotation, { type: 'point' | 'polygon' | 'line' | 'ellipse' }>;

/** The shapes a top-down response holds; only polygon, line and point kinds are ever requested. */
function topDownShape(annotation: ImageAnnotation, kind: TopDownKind): TopDownShape[] {
  switch (annotation.type) {
    case 'point':
      return [annotation];
    case 'polygon':
    case 'line':
    case 'ellipse':
      return [kind === 'line' ? { ...annotation, type: 'line' } : annotation];
    default:
      return [];
  }
}

/**
 * Top-down shapes are the image shapes of the same kinds, drawn on the rendered top-down canvas.
 * Unlike image responses, lines keep type "line": in a top-down view lanes and boundaries are
 * mostly lines, and a reader must tell them from area polygons.
 */
export function synthesizeTopDown(
  params: { geometries: Geometries; annotation_attributes?: AnnotationAttributes },
  rng: Rng,
): { annotations: TopDownShape[] } {
  const { geometries } = params;
  const annotations = TOP_DOWN_KINDS.filter((kind) => geometries[kind] !== undefined).flatMap((kind) =>
    synthesizeImageResponse(
      { geometries: { [kind]: geometries[kind] }, annotation_attributes: params.annotation_attributes },
      rng,
    ).annotations.flatMap((annotation) => topDownShape(annotation, kind)),
  );
  return { annotations };
}
