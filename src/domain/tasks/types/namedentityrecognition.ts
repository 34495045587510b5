import { z } from 'zod';
import { synthesizeNerResponse } from '../../../synth/text-ner.js';
import { boundedArray, boundedTree } from '../../common/bounded.js';
import { MAX_LABELS } from '../../common/input-limits.js';
import { CommonCreateShape } from '../common-params.js';
import {
  checkNerDefinitions,
  NerLabelSchema,
  NerRelationshipSchema,
  type NerResponse,
  NerResponseSchema,
} from '../ner.js';
import { checkNerResponse, type NerParams } from '../ner-response.js';
import { TextCollectionAttachmentsSchema } from '../text-attachments.js';
import type { TaskTypeDefinition } from '../type-definition.js';

const RequiredText = (what: string) => z.string().refine((s) => s.trim() !== '', `must be a non-empty ${what}`);

export const NamedEntityRecognitionCreateSchema = z
  .object({
    ...CommonCreateShape,
    // Required for this type, unlike the common parameter.
    instruction: RequiredText('instruction'),
    text: RequiredText('text to annotate'),
    // Counted before any label is checked: at most MAX_LABELS in the whole tree, children included.
    labels: boundedTree(NerLabelSchema, { min: 1, treeMax: MAX_LABELS, childKey: 'children', what: 'labels' }),
    relationships: boundedArray(NerRelationshipSchema, { max: MAX_LABELS }).optional(),
    attachments: TextCollectionAttachmentsSchema.optional(),
    merge_newlines: z.boolean().optional(),
    allow_overlapping_annotations: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    for (const found of checkNerDefinitions(body.labels, body.relationships))
      ctx.addIssue({ code: 'custom', ...found });
  });

export const namedentityrecognition: TaskTypeDefinition = {
  type: 'namedentityrecognition',
  summary: 'Create a named entity recognition task (labeled spans of a text, and relationships between them)',
  createSchema: NamedEntityRecognitionCreateSchema,
  responseSchema: NerResponseSchema,
  schemaName: 'NamedEntityRecognition',
  checkResponse: (task, response) => checkNerResponse(task.params as unknown as NerParams, response as NerResponse),
  synthesize: (task, rng) => synthesizeNerResponse(task.params as unknown as NerParams, rng),
};
