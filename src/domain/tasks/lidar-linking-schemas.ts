import { z } from 'zod';
import { LabelListSchema } from '../common/labels.js';
import { AttachmentUrlSchema } from '../common/values.js';
import { AnnotationAttributesSchema } from './attributes.js';
import { PaddingShape } from './common-params.js';
import { GeometriesSchema } from './geometries.js';
import {
  BoxAnnotationSchema,
  CuboidAnnotationSchema,
  PointAnnotationSchema,
  PolygonAnnotationSchema,
} from './image-annotations.js';
import { LabelingSampleRateSchema, NameListSchema } from './lidar-common.js';

/** The lidar linking type's wire shapes: its params and its response (checks and definition: types/). */

const LINKING_ANNOTATION_TYPES = ['imageannotation', 'annotation', 'cuboidannotation', 'polygonannotation'] as const;

const CameraIdSchema = z.number().int().min(0);

/** Cameras per event; the interface does not show the object, so this shape is the mock's choice. */
const EventCamerasSchema = z.object({ event: z.string().min(1), camera_ids: z.array(CameraIdSchema).min(1) }).strict();

/** Read-only shapes per camera: a file holding one layer array per frame. */
const LinkingLayerSchema = z.object({ url: AttachmentUrlSchema, camera_id: CameraIdSchema }).strict();

/** What a lidar linking task's `params` hold (its required instruction stays on the task). */
export const LidarLinkingParamsSchema = z.object({
  lidar_task: z.string().min(1),
  annotation_type: z.enum(LINKING_ANNOTATION_TYPES),
  annotation_attributes: AnnotationAttributesSchema.optional(),
  camera_ids: z.array(CameraIdSchema).min(1).optional(),
  events_to_annotate: NameListSchema.optional(),
  event_camera_ids: z.array(EventCamerasSchema).optional(),
  can_add_annotations: z.boolean().optional(),
  can_edit_annotations: z.boolean().optional(),
  can_edit_annotation_positions: z.boolean().optional(),
  can_delete_annotations: z.boolean().optional(),
  labeling_sample_rate: LabelingSampleRateSchema.optional(),
  additional_labels: LabelListSchema.optional(),
  skip_labels: NameListSchema.optional(),
  geometries: GeometriesSchema.optional(),
  default_geometry: z.enum(['box', 'cuboid', 'polygon']).optional(),
  copy_all_lidar_task_attributes: z.boolean().optional(),
  ...PaddingShape,
  layers: z.array(LinkingLayerSchema).optional(),
});
export type LidarLinkingParams = z.infer<typeof LidarLinkingParamsSchema>;

const frameCamera = { frame_index: z.number().int().min(1), camera_id: CameraIdSchema };

/** A 2D projection of one cuboid of the lidar task, on one camera image of one frame; uuid is the cuboid's. */
const LinkedAnnotationSchema = z.discriminatedUnion('type', [
  BoxAnnotationSchema.extend(frameCamera),
  PolygonAnnotationSchema.extend(frameCamera),
  PointAnnotationSchema.extend(frameCamera),
  CuboidAnnotationSchema.extend(frameCamera),
]);
export type LinkedAnnotation = z.infer<typeof LinkedAnnotationSchema>;

export const LidarLinkingResponseSchema = z.object({ annotations: z.array(LinkedAnnotationSchema) }).strict();
