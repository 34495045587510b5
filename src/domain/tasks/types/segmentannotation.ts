import { z } from 'zod';
import { synthesizeSegmentation } from '../../../synth/segmentation.js';
import { allLabelNames, duplicateLabelNames, labelList } from '../../common/labels.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { AnnotationAttributesSchema, checkAttributeConditions } from '../attributes.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { reportAll } from '../report.js';
import { checkSegmentationResponse, SegmentationResponseSchema } from '../segmentation.js';
import { ContextAttachmentSchema } from './imageannotation.js';

const MAX_SEGMENTATION_LABELS = 50;

const SegmentationLabelsSchema = labelList({ min: 1, max: MAX_SEGMENTATION_LABELS }).superRefine((labels, ctx) => {
  // Responses key masks by label name, so a name can only mean one label.
  const dupes = duplicateLabelNames(labels);
  if (dupes.length > 0)
    ctx.addIssue({ code: 'custom', message: `must not repeat labels (repeated: ${dupes.join(', ')})` });
});

/** What a segmentation task's `params` hold. */
const SegmentAnnotationParamsSchema = z.object({
  attachment: AttachmentUrlSchema,
  // Only image is supported; the service records it in params either way.
  attachment_type: z.literal('image').optional(),
  labels: SegmentationLabelsSchema,
  annotation_attributes: AnnotationAttributesSchema.optional(),
  allow_unlabeled: z.boolean().optional(),
  /**
   * Labels masked per instance, beside `labels` (the Ruby client's spec and its recording: accepted and echoed,
   * scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/segment_annotation.yml); a LabelDescription's instance_label
   * says the same for one label.
   */
  instance_labels: labelList({ max: MAX_SEGMENTATION_LABELS }).optional(),
  /** Whether a parent label may be chosen for a pixel (recorded: filled false). */
  allow_parent_labels: z.boolean().optional(),
  // The interface does not show the segmentation hypothesis's shape.
  hypothesis: z.record(z.unknown()).optional(),
  context_attachments: z.array(ContextAttachmentSchema).optional(),
});

const SegmentAnnotationCreateSchema = createBodySchema(SegmentAnnotationParamsSchema, {}, (body, report) => {
  body.context_attachments?.forEach((entry, index) => {
    if (entry.attachment === body.attachment)
      report(['context_attachments', index, 'attachment'], 'must not equal the task attachment');
  });
  const names = allLabelNames(body.labels);
  const twice = allLabelNames(body.instance_labels ?? []).filter((name) => names.includes(name));
  if (twice.length > 0)
    report(['instance_labels'], `must not repeat labels of "labels" (repeated: ${twice.join(', ')})`);
  checkAttributeConditions(
    body.annotation_attributes,
    new Set([...names, ...allLabelNames(body.instance_labels ?? [])]),
    report,
  );
});

export const segmentannotation = defineTaskType({
  type: 'segmentannotation',
  summary: 'Create a semantic segmentation task (every pixel classified; per-instance masks with instance_label)',
  createSchema: SegmentAnnotationCreateSchema,
  params: SegmentAnnotationParamsSchema,
  response: SegmentationResponseSchema,
  schemaName: 'SegmentAnnotation',
  paramDefaults: { attachment_type: 'image', allow_parent_labels: false },
  checkResponse: (params, response, report) => reportAll(report, checkSegmentationResponse(params, response)),
  synthesize: (params, rng, taskId) => synthesizeSegmentation(taskId, params, rng),
});
