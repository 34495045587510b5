import { z } from 'zod';
import { synthesizeImageResponse } from '../../../synth/image.js';
import { allLabelNames } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { checkAnnotationsFit, checkResponseAnnotationsFit } from '../annotation-fit.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { BaseAnnotationPermissionShape, CommonCreateShape, PaddingShape } from '../common-params.js';
import { GEOMETRY_KINDS, type Geometries, GeometriesSchema } from '../geometries.js';
import { ImageAnnotationResponseSchema, ImageHypothesisSchema } from '../image-annotations.js';
import type { TaskTypeDefinition } from '../type-definition.js';

export const ContextAttachmentSchema = z.object({ attachment: AttachmentUrlSchema }).strict();

export const ImageMetadataSchema = z
  .object({
    date_time: z.string().optional(),
    resolution: z
      .object({ resolution_ratio: z.number().positive(), resolution_unit: z.string().min(1) })
      .strict()
      .optional(),
    location: z
      .object({ lat: z.number().min(-90).max(90), long: z.number().min(-180).max(180) })
      .strict()
      .optional(),
  })
  .strict();

/** Shared by image and video tasks: hypothesis, layer, base annotations and attributes checked against geometries. */
export function checkGeometryDependents(
  body: {
    geometries: Geometries;
    annotation_attributes?: z.infer<typeof AnnotationAttributesSchema>;
    hypothesis?: { annotations: { type: string; label: string; attributes?: Record<string, unknown> }[] };
    base_annotations?: { annotations: { type: string; label: string; attributes?: Record<string, unknown> }[] };
  },
  ctx: z.RefinementCtx,
): void {
  const labels = new Set(GEOMETRY_KINDS.flatMap((kind) => allLabelNames(body.geometries[kind]?.objects_to_annotate)));
  checkAttributeConditions(body.annotation_attributes, labels, ctx);
  for (const key of ['hypothesis', 'base_annotations'] as const) {
    const annotations = body[key]?.annotations ?? [];
    for (const issue of checkAnnotationsFit(annotations, body.geometries, body.annotation_attributes, [
      key,
      'annotations',
    ])) {
      ctx.addIssue({ code: 'custom', ...issue });
    }
  }
}

export const ImageAnnotationCreateSchema = z
  .object({
    ...CommonCreateShape,
    attachment: AttachmentUrlSchema,
    attachment_type: z.literal('image').optional(),
    geometries: GeometriesSchema,
    context_attachment: z.array(ContextAttachmentSchema).optional(),
    annotation_attributes: AnnotationAttributesSchema.optional(),
    links: z.record(z.unknown()).optional(),
    hypothesis: ImageHypothesisSchema.optional(),
    layer: z.record(z.unknown()).optional(),
    base_annotations: ImageHypothesisSchema.optional(),
    ...BaseAnnotationPermissionShape,
    image_metadata: ImageMetadataSchema.optional(),
    ...PaddingShape,
  })
  .strict()
  .superRefine((body, ctx) => {
    body.context_attachment?.forEach((entry, index) => {
      if (entry.attachment === body.attachment) {
        ctx.addIssue({
          code: 'custom',
          path: ['context_attachment', index, 'attachment'],
          message: 'must not equal the task attachment',
        });
      }
    });
    checkGeometryDependents(body, ctx);
  });
export type ImageAnnotationCreate = z.infer<typeof ImageAnnotationCreateSchema>;

type ImageParams = Pick<ImageAnnotationCreate, 'geometries' | 'annotation_attributes'>;

export const imageannotation: TaskTypeDefinition = {
  type: 'imageannotation',
  summary: 'Create an image annotation task (boxes, polygons, lines, points, ellipses, cuboids)',
  createSchema: ImageAnnotationCreateSchema,
  responseSchema: ImageAnnotationResponseSchema,
  schemaName: 'ImageAnnotation',
  paramDefaults: { attachment_type: 'image' },
  checkResponse: (task, response) => checkResponseAnnotationsFit(response, task.params as ImageParams),
  synthesize: (task, rng) => synthesizeImageResponse(task.params as ImageParams, rng),
};
