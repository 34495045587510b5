import { z } from 'zod';
import { synthesizeLidarAnnotation } from '../../../synth/lidar.js';
import { allLabelNames, leafLabels } from '../../common/labels.js';
import { checkAttributeValues, type FitIssue } from '../annotation-fit.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { CommonCreateShape } from '../common-params.js';
import { PointXYZSchema } from '../image-annotations.js';
import { LabelingSampleRateSchema, LidarSequenceShape, labeledFrames, NameListSchema } from '../lidar-common.js';
import type { TaskTypeDefinition } from '../type-definition.js';

export { labeledFrames } from '../lidar-common.js';

export const LidarAnnotationCreateSchema = z
  .object({
    ...CommonCreateShape,
    ...LidarSequenceShape,
    annotation_attributes: AnnotationAttributesSchema.optional(),
    max_distance_meters: z.number().int().positive().optional(),
    meters_per_unit: z.number().int().positive().optional(),
    frames_per_second: z.number().int().positive().optional(),
    labeling_sample_rate: LabelingSampleRateSchema.optional(),
    polygons_enabled: z.boolean().optional(),
    polygons_labels: NameListSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    const known = new Set([...allLabelNames(body.labels), ...(body.polygons_labels ?? [])]);
    checkAttributeConditions(body.annotation_attributes, known, ctx);
  });
export type LidarAnnotationCreate = z.infer<typeof LidarAnnotationCreateSchema>;

const annotationBase = {
  uuid: z.string().min(1),
  label: z.string().min(1),
  attributes: z.record(z.unknown()).default({}),
};
const SizeXYZSchema = z
  .object({ x: z.number().positive(), y: z.number().positive(), z: z.number().positive() })
  .strict();

/** A 3D box in the frame's coordinates: centre, size along its own axes, and heading (radians about z). */
export const LidarCuboidSchema = z
  .object({ ...annotationBase, position: PointXYZSchema, dimensions: SizeXYZSchema, yaw: z.number() })
  .passthrough();

/** Polygons (polygons_enabled): a closed ring of 3D points. */
export const LidarPolygonSchema = z
  .object({ ...annotationBase, vertices: z.array(PointXYZSchema).min(3) })
  .passthrough();

/** One labeled frame: frame_index is 1-indexed into the task's attachments. */
export const LidarFrameAnnotationsSchema = z
  .object({
    frame_index: z.number().int().min(1),
    cuboids: z.array(LidarCuboidSchema),
    polygons: z.array(LidarPolygonSchema).optional(),
  })
  .strict();

/** Cuboids per labeled frame; a uuid denotes the same object, with the same label, in every frame. */
export const LidarAnnotationResponseSchema = z.object({ annotations: z.array(LidarFrameAnnotationsSchema) }).strict();
export type LidarAnnotationResponse = z.infer<typeof LidarAnnotationResponseSchema>;

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
  task: LidarAnnotationCreate,
  seen: Map<string, string>,
  path: (string | number)[],
): FitIssue[] {
  const issues: FitIssue[] = [];
  const inFrame = new Set<string>();
  shapes.forEach((shape, index) => {
    const at = [...path, index];
    if (!allowed.names.includes(shape.label)) {
      issues.push({
        path: [...at, 'label'],
        message: `is "${shape.label}", not one of the task's ${allowed.what} (${allowed.names.join(', ')})`,
      });
    }
    if (inFrame.has(shape.uuid))
      issues.push({ path: [...at, 'uuid'], message: `repeats uuid "${shape.uuid}" within one frame` });
    const earlier = seen.get(shape.uuid);
    if (earlier !== undefined && earlier !== shape.label) {
      issues.push({
        path: [...at, 'label'],
        message: `is "${shape.label}", but uuid "${shape.uuid}" is "${earlier}" in another frame (one uuid is one object with one label)`,
      });
    }
    inFrame.add(shape.uuid);
    seen.set(shape.uuid, earlier ?? shape.label);
    issues.push(...checkAttributeValues(shape.attributes, task.annotation_attributes, [...at, 'attributes']));
  });
  return issues;
}

export function checkLidarAnnotationResponse(
  params: LidarAnnotationCreate,
  response: LidarAnnotationResponse,
): FitIssue[] {
  const frames = labeledFrames(params.attachments.length, params.labeling_sample_rate);
  const cuboidLabels = { names: leafLabels(params.labels), what: 'leaf labels' };
  const polygonLabels = params.polygons_labels
    ? { names: params.polygons_labels, what: 'polygons_labels' }
    : cuboidLabels;
  const issues: FitIssue[] = [];
  const seenFrames = new Set<number>();
  const seen = new Map<string, string>();
  const seenPolygons = new Map<string, string>();
  response.annotations.forEach((frame, index) => {
    const path = ['response', 'annotations', index];
    if (!frames.includes(frame.frame_index)) {
      issues.push({
        path: [...path, 'frame_index'],
        message: `is ${frame.frame_index}, not a labeled frame of this task (${frames.join(', ')})`,
      });
    } else if (seenFrames.has(frame.frame_index))
      issues.push({ path: [...path, 'frame_index'], message: `repeats frame ${frame.frame_index}` });
    seenFrames.add(frame.frame_index);
    issues.push(...checkShapes(frame.cuboids, cuboidLabels, params, seen, [...path, 'cuboids']));
    if (frame.polygons && frame.polygons.length > 0 && params.polygons_enabled !== true) {
      issues.push({
        path: [...path, 'polygons'],
        message: 'must be absent or empty: polygons_enabled is not true for this task',
      });
    } else
      issues.push(...checkShapes(frame.polygons ?? [], polygonLabels, params, seenPolygons, [...path, 'polygons']));
  });
  return issues;
}

export const lidarannotation: TaskTypeDefinition = {
  type: 'lidarannotation',
  summary: 'Create a lidar annotation task (3D cuboids over a sequence of lidar frames)',
  createSchema: LidarAnnotationCreateSchema,
  responseSchema: LidarAnnotationResponseSchema,
  schemaName: 'LidarAnnotation',
  checkResponse: (task, response) =>
    checkLidarAnnotationResponse(task.params as LidarAnnotationCreate, response as LidarAnnotationResponse),
  synthesize: (task, rng) => synthesizeLidarAnnotation(task.task_id, task.params as LidarAnnotationCreate, rng),
};
