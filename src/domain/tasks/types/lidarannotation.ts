import { z } from 'zod';
import { synthesizeLidarAnnotation } from '../../../synth/lidar.js';
import { allLabelNames, leafLabels } from '../../common/labels.js';
import { checkAttributeValues } from '../annotation-fit.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { createBodySchema } from '../create-body.js';
import { projectCuboidsFromAbove } from '../cuboid-projection.js';
import { defineTaskType, type RootTask } from '../define-task-type.js';
import { PolygonGeometrySchema } from '../geometries.js';
import {
  type LidarAnnotationParams,
  LidarAnnotationParamsSchema,
  type LidarAnnotationResponse,
  LidarAnnotationResponseSchema,
  type LidarCuboidSchema,
} from '../lidar-annotation-schemas.js';
import { labeledFrames } from '../lidar-common.js';
import { type IssuePath, type Report, reportAll } from '../report.js';
import type { DependentRequest } from '../type-definition.js';

export { labeledFrames } from '../lidar-common.js';

const LidarAnnotationCreateSchema = createBodySchema(LidarAnnotationParamsSchema, {}, (body, report) => {
  const known = new Set([...allLabelNames(body.labels), ...(body.polygons_labels ?? [])]);
  checkAttributeConditions(body.annotation_attributes, known, report);
});

type Shape = Pick<z.infer<typeof LidarCuboidSchema>, 'uuid' | 'label' | 'attributes'>;

/** The labels a shape may carry, and what to call them in a message. */
interface Allowed {
  names: string[];
  what: string;
}

/** Labels come from the allowed list; an object keeps its label across frames and appears once per frame. */
function checkShapes(
  shapes: Shape[],
  allowed: Allowed,
  task: LidarAnnotationParams,
  seen: Map<string, string>,
  path: IssuePath,
  report: Report,
): void {
  const inFrame = new Set<string>();
  shapes.forEach((shape, index) => {
    const at = [...path, index];
    if (!allowed.names.includes(shape.label)) {
      const names = allowed.names.join(', ');
      report([...at, 'label'], `is "${shape.label}", not one of the task's ${allowed.what} (${names})`);
    }
    if (inFrame.has(shape.uuid)) report([...at, 'uuid'], `repeats uuid "${shape.uuid}" within one frame`);
    const earlier = seen.get(shape.uuid);
    if (earlier !== undefined && earlier !== shape.label) {
      report(
        [...at, 'label'],
        `is "${shape.label}", but uuid "${shape.uuid}" is "${earlier}" in another frame ` +
          `(one uuid is one object with one label)`,
      );
    }
    inFrame.add(shape.uuid);
    seen.set(shape.uuid, earlier ?? shape.label);
    reportAll(report, checkAttributeValues(shape.attributes, task.annotation_attributes, [...at, 'attributes']));
  });
}

function checkLidarAnnotationResponse(
  params: LidarAnnotationParams,
  response: LidarAnnotationResponse,
  report: Report,
): void {
  const frames = labeledFrames(params.attachments.length, params.labeling_sample_rate);
  const cuboidLabels = { names: leafLabels(params.labels), what: 'leaf labels' };
  const polygonLabels = params.polygons_labels
    ? { names: params.polygons_labels, what: 'polygons_labels' }
    : cuboidLabels;
  const seenFrames = new Set<number>();
  const seen = new Map<string, string>();
  const seenPolygons = new Map<string, string>();
  response.annotations.forEach((frame, index) => {
    const path = ['response', 'annotations', index];
    if (!frames.includes(frame.frame_index)) {
      const rule = `is ${frame.frame_index}, not a labeled frame of this task (${frames.join(', ')})`;
      report([...path, 'frame_index'], rule);
    } else if (seenFrames.has(frame.frame_index))
      report([...path, 'frame_index'], `repeats frame ${frame.frame_index}`);
    seenFrames.add(frame.frame_index);
    checkShapes(frame.cuboids, cuboidLabels, params, seen, [...path, 'cuboids'], report);
    if (frame.polygons && frame.polygons.length > 0 && params.polygons_enabled !== true)
      report([...path, 'polygons'], 'must be absent or empty: polygons_enabled is not true for this task');
    else checkShapes(frame.polygons ?? [], polygonLabels, params, seenPolygons, [...path, 'polygons'], report);
  });
}

/** What the cuboid projection reads from a dependent's request; a request of another shape fails its own check. */
const ProjectionRequestSchema = z.object({
  geometries: z.object({ polygon: PolygonGeometrySchema.optional() }).passthrough().optional(),
  annotation_attributes: AnnotationAttributesSchema.optional(),
  disable_cuboid_projection: z.unknown().optional(),
});

/**
 * A lidar root names itself as its dependents' lidar_task; a lidartopdown dependent of a completed
 * root also starts from its cuboids, seen from above, unless it sets disable_cuboid_projection.
 */
function offerToDependent(
  root: RootTask<LidarAnnotationParams, LidarAnnotationResponse>,
  dependent: DependentRequest,
): Record<string, unknown> {
  const request = ProjectionRequestSchema.safeParse(dependent.params);
  if (dependent.type !== 'lidartopdown' || !root.response || !request.success) return { lidar_task: root.taskId };
  if (request.data.disable_cuboid_projection === true) return { lidar_task: root.taskId };
  const polygonLabels = request.data.geometries?.polygon?.objects_to_annotate;
  const attributes = Object.keys(request.data.annotation_attributes ?? {});
  const projected = projectCuboidsFromAbove(root.response, polygonLabels, attributes);
  return { lidar_task: root.taskId, ...(projected.annotations.length > 0 && { base_annotations: projected }) };
}

export const lidarannotation = defineTaskType({
  type: 'lidarannotation',
  summary: 'Create a lidar annotation task (3D cuboids over a sequence of lidar frames)',
  createSchema: LidarAnnotationCreateSchema,
  params: LidarAnnotationParamsSchema,
  response: LidarAnnotationResponseSchema,
  schemaName: 'LidarAnnotation',
  // The callback docs and scale_lidar_io's LidarAnnotationTask.get_annotations() read response.annotations.url.
  resultsByFile: true,
  checkResponse: checkLidarAnnotationResponse,
  synthesize: (params, rng, taskId) => synthesizeLidarAnnotation(taskId, params, rng),
  toDependent: offerToDependent,
});
