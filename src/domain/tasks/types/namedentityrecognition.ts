import { z } from 'zod';
import { synthesizeNerResponse } from '../../../synth/text-ner.js';
import { boundedArray, boundedTree } from '../../common/bounded.js';
import { MAX_LABELS } from '../../common/input-limits.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { checkNerDefinitions, NerLabelSchema, NerRelationshipSchema, NerResponseSchema } from '../ner.js';
import { checkNerResponse } from '../ner-response.js';
import { reportAll } from '../report.js';
import { TextCollectionAttachmentsSchema } from '../text-attachments.js';

const RequiredText = (what: string) => z.string().refine((s) => s.trim() !== '', `must be a non-empty ${what}`);

/** What a named entity recognition task's `params` hold (its required instruction stays on the task). */
const NamedEntityRecognitionParamsSchema = z.object({
  text: RequiredText('text to annotate'),
  // Counted before any label is checked: at most MAX_LABELS in the whole tree, children included.
  labels: boundedTree(NerLabelSchema, { min: 1, treeMax: MAX_LABELS, childKey: 'children', what: 'labels' }),
  relationships: boundedArray(NerRelationshipSchema, { max: MAX_LABELS }).optional(),
  attachments: TextCollectionAttachmentsSchema.optional(),
  merge_newlines: z.boolean().optional(),
  allow_overlapping_annotations: z.boolean().optional(),
});

const NamedEntityRecognitionCreateSchema = createBodySchema(
  NamedEntityRecognitionParamsSchema,
  // Required for this type, unlike the common parameter.
  { instruction: RequiredText('instruction') },
  (body, report) => reportAll(report, checkNerDefinitions(body.labels, body.relationships)),
);

export const namedentityrecognition = defineTaskType({
  type: 'namedentityrecognition',
  summary: 'Create a named entity recognition task (labeled spans of a text, and relationships between them)',
  createSchema: NamedEntityRecognitionCreateSchema,
  params: NamedEntityRecognitionParamsSchema,
  response: NerResponseSchema,
  schemaName: 'NamedEntityRecognition',
  checkResponse: (params, response, report) => reportAll(report, checkNerResponse(params, response)),
  synthesize: (params, rng) => synthesizeNerResponse(params, rng),
});
