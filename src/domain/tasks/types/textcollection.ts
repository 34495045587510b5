import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { synthesizeTextCollection } from '../../../synth/text-collection.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { type Report, reportAll } from '../report.js';
import { TextCollectionAttachmentsSchema } from '../text-attachments.js';
import { checkAnswers } from '../text-field-answers.js';
import { checkFieldTree } from '../text-field-rules.js';
import { collectAnswers, locateFields } from '../text-field-tree.js';
import { FieldListSchema } from '../text-fields.js';
import { checkTextCollectionHypothesis, TextCollectionHypothesisSchema } from '../text-hypothesis.js';

/** What a text collection task's `params` hold. */
const TextCollectionParamsSchema = z.object({
  attachments: TextCollectionAttachmentsSchema,
  fields: FieldListSchema,
  hypothesis: TextCollectionHypothesisSchema.optional(),
  // A sample request also carries these three; they are stored as given.
  title: z.string().optional(),
  description: z.string().optional(),
  responses_required: z.number().int().positive().optional(),
});
type TextCollectionParams = z.infer<typeof TextCollectionParamsSchema>;

const TextCollectionCreateSchema = createBodySchema(TextCollectionParamsSchema, {}, checkTextCollection);

/** Field tree rules, forms named by attachments, ranking sizes, then the hypothesis against the fields. */
function checkTextCollection(body: TextCollectionParams, report: Report): void {
  const { issues, byId } = checkFieldTree(body.fields);
  reportAll(report, issues);
  const forms = new Set(
    locateFields(body.fields, [])
      .filter(({ field }) => field.type === 'form')
      .map(({ field }) => field.field_id),
  );
  body.attachments.forEach((attachment, index) => {
    attachment.forms?.forEach((id, j) => {
      if (!forms.has(id))
        report(['attachments', index, 'forms', j], `names "${id}", which is not the field_id of a form field`);
    });
  });
  const count = body.attachments.length;
  for (const { field, path } of locateFields(body.fields, ['fields'])) {
    if (field.type === 'ranking_order' && (field.num_items_to_rank ?? 0) > count)
      report([...path, 'num_items_to_rank'], `must be at most the number of attachments (${count})`);
  }
  reportAll(report, checkTextCollectionHypothesis(body.hypothesis, byId));
}

const TextCollectionResponseSchema = z
  .object({
    annotations: extendApi(z.record(z.unknown()), {
      description:
        'Answers keyed by field_id: text a string, boolean a boolean, number a number, ' +
        'datetime {year, month, day, hour, minute} ' +
        '(the included parts), category and select an array of selected values, time_range [start, end] seconds, ' +
        "ranking_order attachment indices best first, form an object of its children's answers; " +
        'an array of such answers when max_responses_required is above 1',
    }),
  })
  .strict();

export const textcollection = defineTaskType({
  type: 'textcollection',
  summary: 'Create a text collection task (answers to fields about attachments)',
  createSchema: TextCollectionCreateSchema,
  params: TextCollectionParamsSchema,
  response: TextCollectionResponseSchema,
  schemaName: 'TextCollection',
  // The interface: attachments and fields are stored in params and also shown on the task object.
  taskFields: (params) => ({ attachments: params.attachments, fields: params.fields }),
  checkResponse: (params, response, report) => {
    const context = {
      all: collectAnswers(params.fields, response.annotations),
      attachmentCount: params.attachments.length,
    };
    reportAll(report, checkAnswers(params.fields, response.annotations, ['response', 'annotations'], context));
  },
  synthesize: (params, rng) => ({ annotations: synthesizeTextCollection(params, rng) }),
});
