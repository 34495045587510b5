import { leafLabels } from '../domain/common/labels.js';
import type { Geometries } from '../domain/tasks/geometries.js';
import type { LidarLinkingParams, LinkedAnnotation } from '../domain/tasks/lidar-linking-schemas.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeImageResponse } from './image.js';
import { lidarObjectUuid } from './lidar.js';

/** Label of a projection when the task itself names none (the lidar task's labels are not at hand here). */
const FALLBACK_LABEL = 'object';
const LEGACY_KIND: Record<string, 'box' | 'cuboid' | 'polygon'> = {
  annotation: 'box',
  cuboidannotation: 'cuboid',
  polygonannotation: 'polygon',
};

/**
 * What is drawn: one projection per cuboid, of the default geometry for imageannotation tasks (with
 * that geometry's labels); the legacy kinds draw their one shape with the task's additional_labels
 * (or a fallback label), never a skipped one.
 */
function drawnGeometries(params: LidarLinkingParams): Geometries {
  const kind = params.default_geometry;
  if (params.annotation_type === 'imageannotation' && params.geometries && kind && params.geometries[kind]) {
    return { [kind]: params.geometries[kind] };
  }
  const skipped = new Set(params.skip_labels ?? []);
  const labels = leafLabels(params.additional_labels).filter((label) => !skipped.has(label));
  const fallback = skipped.has(FALLBACK_LABEL) ? `${FALLBACK_LABEL}_projected` : FALLBACK_LABEL;
  // An imageannotation task always has its default geometry (a creation rule): only legacy kinds get here.
  const legacyKind = LEGACY_KIND[params.annotation_type] ?? 'box';
  return { [legacyKind]: { objects_to_annotate: labels.length > 0 ? labels : [fallback] } };
}

/**
 * Projections on frame 1 of every camera (camera 0 when camera_ids is not given). Frame 1 is the one
 * frame every sampling labels, whatever the rates of the lidar task and of this task. The n-th shape
 * carries the uuid the mock gives the n-th cuboid of a synthesized lidar task, so a synthesized
 * chain links up; a lidar task completed with a given response has its own uuids.
 */
export function synthesizeLidarLinking(params: LidarLinkingParams, rng: Rng): { annotations: LinkedAnnotation[] } {
  const geometries = drawnGeometries(params);
  const skipped = new Set(params.skip_labels ?? []);
  const annotations = (params.camera_ids ?? [0]).flatMap((camera_id) =>
    synthesizeImageResponse({ geometries, annotation_attributes: params.annotation_attributes }, rng)
      .annotations.filter((shape) => !skipped.has(shape.label))
      .map(
        (shape, index): LinkedAnnotation => ({
          ...shape,
          uuid: lidarObjectUuid(params.lidar_task, index),
          frame_index: 1,
          camera_id,
        }),
      ),
  );
  return { annotations };
}
