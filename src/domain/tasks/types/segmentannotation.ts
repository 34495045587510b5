import { z } from 'zod';
import { synthesizeSegmentation } from '../../../synth/segmentation.js';
import { allLabelNames, duplicateLabelNames, labelList } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { CommonCreateShape } from '../common-params.js';
import { checkSegmentationResponse, type SegmentationResponse, SegmentationResponseSchema } from '../segmentation.js';
import type { TaskTypeDefinition } from '../type-definition.js';
import { ContextAttachmentSchema } from './imageannotation.js';

export const MAX_SEGMENTATION_LABELS = 50;

export const SegmentationLabelsSchema = labelList({ min: 1, max: MAX_SEGMENTATION_LABELS }).superRefine(
  (labels, ctx) => {
    // Responses key masks by label name, so a name can only mean one label.
    const dupes = duplicateLabelNames(labels);
    if (dupes.length > 0)
      ctx.addIssue({ code: 'custom', message: `must not repeat labels (repeated: ${dupes.join(', ')})` });
  },
);

export const SegmentAnnotationCreateSchema = z
  .object({
    ...CommonCreateShape,
    attachment: AttachmentUrlSchema,
    // Only image is supported; the service records it in params either way.
    attachment_type: z.literal('image').optional(),
    labels: SegmentationLabelsSchema,
    annotation_attributes: AnnotationAttributesSchema.optional(),
    allow_unlabeled: z.boolean().optional(),
    // The interface does not show the segmentation hypothesis's shape.
    hypothesis: z.record(z.unknown()).optional(),
    context_attachments: z.array(ContextAttachmentSchema).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    body.context_attachments?.forEach((entry, index) => {
      if (entry.attachment === body.attachment) {
        ctx.addIssue({
          code: 'custom',
          path: ['context_attachments', index, 'attachment'],
          message: 'must not equal the task attachment',
        });
      }
    });
    checkAttributeConditions(body.annotation_attributes, new Set(allLabelNames(body.labels)), ctx);
  });
export type SegmentAnnotationCreate = z.infer<typeof SegmentAnnotationCreateSchema>;

export type SegmentationParams = Pick<SegmentAnnotationCreate, 'labels' | 'allow_unlabeled' | 'annotation_attributes'>;

export const segmentannotation: TaskTypeDefinition = {
  type: 'segmentannotation',
  summary: 'Create a semantic segmentation task (every pixel classified; per-instance masks with instance_label)',
  createSchema: SegmentAnnotationCreateSchema,
  responseSchema: SegmentationResponseSchema,
  schemaName: 'SegmentAnnotation',
  paramDefaults: { attachment_type: 'image' },
  checkResponse: (task, response) =>
    checkSegmentationResponse(task.params as SegmentationParams, response as SegmentationResponse),
  synthesize: (task, rng) => synthesizeSegmentation(task.task_id, task.params as SegmentationParams, rng),
};
