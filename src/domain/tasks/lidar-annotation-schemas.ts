import { z } from 'zod';
import { AnnotationAttributesSchema } from './attributes.js';
import { PointXYZSchema } from './image-annotations.js';
import { LabelingSampleRateSchema, LidarSequenceShape, NameListSchema } from './lidar-common.js';

/** The lidar annotation type's wire shapes: its params and its response (checks and definition: types/). */

/** What a lidar annotation task's `params` hold. */
export const LidarAnnotationParamsSchema = z.object({
  ...LidarSequenceShape,
  annotation_attributes: AnnotationAttributesSchema.optional(),
  max_distance_meters: z.number().int().positive().optional(),
  meters_per_unit: z.number().int().positive().optional(),
  frames_per_second: z.number().int().positive().optional(),
  labeling_sample_rate: LabelingSampleRateSchema.optional(),
  polygons_enabled: z.boolean().optional(),
  polygons_labels: NameListSchema.optional(),
});
export type LidarAnnotationParams = z.infer<typeof LidarAnnotationParamsSchema>;

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
const LidarPolygonSchema = z.object({ ...annotationBase, vertices: z.array(PointXYZSchema).min(3) }).passthrough();

/** One labeled frame: frame_index is 1-indexed into the task's attachments. */
const LidarFrameAnnotationsSchema = z
  .object({
    frame_index: z.number().int().min(1),
    cuboids: z.array(LidarCuboidSchema),
    polygons: z.array(LidarPolygonSchema).optional(),
  })
  .strict();

/** Cuboids per labeled frame; a uuid denotes the same object, with the same label, in every frame. */
export const LidarAnnotationResponseSchema = z.object({ annotations: z.array(LidarFrameAnnotationsSchema) }).strict();
export type LidarAnnotationResponse = z.infer<typeof LidarAnnotationResponseSchema>;
