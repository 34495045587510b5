import { z } from 'zod';
import type { FitIssue } from './annotation-fit.js';
import { choiceValue, issue, leafChoices, sameValue } from './text-field-tree.js';
import { FieldIdSchema, type UnitField } from './text-fields.js';

/**
 * Text collection prelabels: `hypothesis.annotations` keyed by field_id. The interface shows the
 * response shape for category (array of arrays of strings) and text (an array of one string) only;
 * other field types' prelabels are kept as given.
 */

const TextHypothesisEntrySchema = z
  .object({ type: z.string().min(1), field_id: FieldIdSchema, response: z.unknown() })
  .strict()
  .refine((entry) => entry.response !== undefined, { path: ['response'], message: 'is required' });

export const TextCollectionHypothesisSchema = z.object({ annotations: z.record(TextHypothesisEntrySchema) }).strict();
export type TextCollectionHypothesis = z.infer<typeof TextCollectionHypothesisSchema>;

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

export function checkTextCollectionHypothesis(
  hypothesis: TextCollectionHypothesis | undefined,
  byId: ReadonlyMap<string, UnitField>,
): FitIssue[] {
  const issues: FitIssue[] = [];
  for (const [key, entry] of Object.entries(hypothesis?.annotations ?? {})) {
    const path = ['hypothesis', 'annotations', key];
    const field = byId.get(key);
    if (!field) {
      issues.push(issue(path, 'is not a field_id of the task'));
      continue;
    }
    if (entry.field_id !== key) issues.push(issue([...path, 'field_id'], `must equal its key ("${key}")`));
    if (entry.type !== field.type) issues.push(issue([...path, 'type'], `must be the field's type ("${field.type}")`));
    else issues.push(...checkPrelabel(field, entry.response, [...path, 'response']));
  }
  return issues;
}

function checkPrelabel(field: UnitField, response: unknown, path: (string | number)[]): FitIssue[] {
  if (field.type === 'text') {
    return isStringList(response) && response.length === 1
      ? []
      : [issue(path, 'must be an array of one string for a text field')];
  }
  if (field.type !== 'category') return [];
  if (!Array.isArray(response) || !response.every(isStringList))
    return [issue(path, 'must be an array of arrays of strings for a category field')];
  const offered = leafChoices(field.choices).map(choiceValue);
  const unknown = response.flat().filter((v) => !offered.some((o) => sameValue(o, v)));
  return unknown.length > 0
    ? [
        issue(
          path,
          `has value(s) ${unknown.map((v) => `"${v}"`).join(', ')} that are not selectable choices of the field`,
        ),
      ]
    : [];
}
