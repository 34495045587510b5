import { z } from 'zod';
import { synthesizeImageResponse } from '../../../synth/image.js';
import { allLabelNames } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { checkAnnotationsFit, checkResponseAnnotationsFit } from '../annotation-fit.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { BaseAnnotationPermissionShape, PaddingShape } from '../common-params.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { GEOMETRY_KINDS, type Geometries, GeometriesSchema } from '../geometries.js';
import { ImageAnnotationResponseSchema, ImageHypothesisSchema } from '../image-annotations.js';
import { type Report, reportAll } from '../report.js';

export const ContextAttachmentSchema = z.object({ attachment: AttachmentUrlSchema }).strict();

const ImageMetadataSchema = z
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
  report: Report,
): void {
  const labels = new Set(GEOMETRY_KINDS.flatMap((kind) => allLabelNames(body.geometries[kind]?.objects_to_annotate)));
  checkAttributeConditions(body.annotation_attributes, labels, report);
  for (const key of ['hypothesis', 'base_annotations'] as const) {
    const annotations = body[key]?.annotations ?? [];
    reportAll(
      report,
      checkAnnotationsFit(annotations, body.geometries, body.annotation_attributes, [key, 'annotations']),
    );
  }
}

/** What an image annotation task's `params` hold. */
const ImageAnnotationParamsSchema = z.object({
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
});

const ImageAnnotationCreateSchema = createBodySchema(ImageAnnotationParamsSchema, {}, (body, report) => {
  body.context_attachment?.forEach((entry, index) => {
    if (entry.attachment === body.attachment)
      report(['context_attachment', index, 'attachment'], 'must not equal the task attachment');
  });
  checkGeometryDependents(body, report);
});

export const imageannotation = defineTaskType({
  type: 'imageannotation',
  summary: 'Create an image annotation task (boxes, polygons, lines, points, ellipses, cuboids)',
  createSchema: ImageAnnotationCreateSchema,
  params: ImageAnnotationParamsSchema,
  response: ImageAnnotationResponseSchema,
  schemaName: 'ImageAnnotation',
  paramDefaults: { attachment_type: 'image' },
  checkResponse: (params, response, report) => reportAll(report, checkResponseAnnotationsFit(response, params)),
  synthesize: (params, rng) => synthesizeImageResponse(params, rng),
});
