import { type LabelDescription, leafLabels } from '../common/labels.js';
import type { LidarAnnotationResponse } from './lidar-annotation-schemas.js';

const round2 = (v: number) => Math.round(v * 100) / 100;

/**
 * A lidartopdown task made as a dependent of a lidarannotation task starts with the root's cuboids
 * projected as polygons (their footprints seen from above), unless disable_cuboid_projection is
 * set. Only cuboids whose label is one of the dependent's polygon labels are kept, with the
 * attributes the dependent defines, so the base annotations fit the task; each keeps its cuboid's
 * uuid. The first labeled frame is used.
 */
export function projectCuboidsFromAbove(
  response: LidarAnnotationResponse | undefined,
  polygonLabels: readonly LabelDescription[] | undefined,
  attributeNames: readonly string[],
) {
  const allowed = new Set(leafLabels(polygonLabels));
  const cuboids = response?.annotations[0]?.cuboids ?? [];
  return {
    annotations: cuboids
      .filter((cuboid) => allowed.has(cuboid.label))
      .map(({ uuid, label, attributes, position, dimensions, yaw }) => {
        const [cos, sin] = [Math.cos(yaw), Math.sin(yaw)];
        const corners: [number, number][] = [
          [dimensions.x / 2, dimensions.y / 2],
          [-dimensions.x / 2, dimensions.y / 2],
          [-dimensions.x / 2, -dimensions.y / 2],
          [dimensions.x / 2, -dimensions.y / 2],
        ];
        const vertices = corners.map(([dx, dy]) => ({
          x: round2(position.x + dx * cos - dy * sin),
          y: round2(position.y + dx * sin + dy * cos),
        }));
        const kept = Object.fromEntries(
          Object.entries(attributes ?? {}).filter(([name]) => attributeNames.includes(name)),
        );
        return { type: 'polygon' as const, uuid, label, attributes: kept, vertices };
      }),
  };
}
