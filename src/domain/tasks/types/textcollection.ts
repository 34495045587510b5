import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { synthesizeTextCollection } from '../../../synth/text-collection.js';
import type { FitIssue } from '../annotation-fit.js';
import { CommonCreateShape } from '../common-params.js';
import { TextCollectionAttachmentsSchema } from '../text-attachments.js';
import { checkAnswers } from '../text-field-answers.js';
import { checkFieldTree } from '../text-field-rules.js';
import { collectAnswers, issue, locateFields } from '../text-field-tree.js';
import { FieldListSchema } from '../text-fields.js';
import { checkTextCollectionHypothesis, TextCollectionHypothesisSchema } from '../text-hypothesis.js';
import type { TaskTypeDefinition } from '../type-definition.js';

export const TextCollectionCreateSchema = z
  .object({
    ...CommonCreateShape,
    attachments: TextCollectionAttachmentsSchema,
    fields: FieldListSchema,
    hypothesis: TextCollectionHypothesisSchema.optional(),
    // A sample request also carries these three; they are stored as given.
    title: z.string().optional(),
    description: z.string().optional(),
    responses_required: z.number().int().positive().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    for (const found of textCollectionIssues(body)) ctx.addIssue({ code: 'custom', ...found });
  });
export type TextCollectionCreate = z.infer<typeof TextCollectionCreateSchema>;
type TextCollectionParams = Pick<TextCollectionCreate, 'attachments' | 'fields' | 'hypothesis'>;

function textCollectionIssues(body: TextCollectionParams): FitIssue[] {
  const { issues, byId } = checkFieldTree(body.fields);
  const forms = new Set(
    locateFields(body.fields, [])
      .filter(({ field }) => field.type === 'form')
      .map(({ field }) => field.field_id),
  );
  body.attachments.forEach((attachment, index) => {
    attachment.forms?.forEach((id, j) => {
      if (!forms.has(id))
        issues.push(
          issue(['attachments', index, 'forms', j], `names "${id}", which is not the field_id of a form field`),
        );
    });
  });
  for (const { field, path } of locateFields(body.fields, ['fields'])) {
    if (field.type === 'ranking_order' && (field.num_items_to_rank ?? 0) > body.attachments.length) {
      issues.push(
        issue([...path, 'num_items_to_rank'], `must be at most the number of attachments (${body.attachments.length})`),
      );
    }
  }
  return [...issues, ...checkTextCollectionHypothesis(body.hypothesis, byId)];
}

export const TextCollectionResponseSchema = z
  .object({
    annotations: extendApi(z.record(z.unknown()), {
      description:
        'Answers keyed by field_id: text a string, boolean a boolean, number a number, datetime {year, month, day, hour, minute} ' +
        '(the included parts), category and select an array of selected values, time_range [start, end] seconds, ' +
        "ranking_order attachment indices best first, form an object of its children's answers; " +
        'an array of such answers when max_responses_required is above 1',
    }),
  })
  .strict();

export const textcollection: TaskTypeDefinition = {
  type: 'textcollection',
  summary: 'Create a text collection task (answers to fields about attachments)',
  createSchema: TextCollectionCreateSchema,
  responseSchema: TextCollectionResponseSchema,
  schemaName: 'TextCollection',
  // The interface: attachments and fields are stored in params and also shown on the task object.
  taskFields: (params) => ({ attachments: params.attachments, fields: params.fields }),
  checkResponse: (task, response) => {
    const params = task.params as TextCollectionParams;
    const context = {
      all: collectAnswers(params.fields, response.annotations),
      attachmentCount: params.attachments.length,
    };
    return checkAnswers(params.fields, response.annotations, ['response', 'annotations'], context);
  },
  synthesize: (task, rng) => ({ annotations: synthesizeTextCollection(task.params as TextCollectionParams, rng) }),
};
