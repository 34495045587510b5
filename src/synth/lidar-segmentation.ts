import { leafLabels } from '../domain/common/labels.js';
import { instanceLeafLabels } from '../domain/tasks/lidar-common.js';
import type { LidarSegmentationParams, LidarSegmentationResponse } from '../domain/tasks/lidar-segmentation-schemas.js';
import type { Rng } from '../runtime/random.js';

/**
 * Frame files are not downloaded, so the real point count is unknown: every frame is given this
 * many points, classified deterministically.
 */
const POINTS_PER_FRAME = 12;

/** Every frame, every point classified with a leaf label; instance labels get per-object ids. */
export function synthesizeLidarSegmentation(params: LidarSegmentationParams, rng: Rng): LidarSegmentationResponse {
  const mapping = leafLabels(params.labels);
  const instance = new Set(instanceLeafLabels(params.labels));
  const annotations = params.attachments.map((_, index) => {
    const labels = Array.from({ length: POINTS_PER_FRAME }, () => rng.int(0, mapping.length - 1));
    // Two neighbouring points of an instance label belong to the same object: ids 1, 1, 2, 2, ...
    const instance_ids = labels.map((label, point) => {
      const name = mapping[label];
      return name !== undefined && instance.has(name) ? 1 + Math.floor(point / 2) : 0;
    });
    return { frame_index: index + 1, labels, ...(instance.size > 0 && { instance_ids }) };
  });
  return { label_mapping: mapping, annotations };
}
