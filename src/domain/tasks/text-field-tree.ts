import type { FitIssue } from './annotation-fit.js';
import { isRecord } from './is-record.js';
import {
  type CategoryChoice,
  type ChoiceValue,
  type FieldCondition,
  type FieldEntry,
  isFieldSet,
  type UnitField,
} from './text-fields.js';

/** Walking the text collection field tree: shared by creation rules, response checks and synthesis. */

export type Path = (string | number)[];

export interface LocatedField {
  field: UnitField;
  path: Path;
}

/** Every field of the tree, children of forms and field sets included, with its request path. */
export function locateFields(entries: readonly FieldEntry[], base: Path): LocatedField[] {
  const out: LocatedField[] = [];
  entries.forEach((entry, index) => {
    const path = [...base, index];
    if (isFieldSet(entry)) out.push(...locateFields(entry.fields, [...path, 'fields']));
    else {
      out.push({ field: entry, path });
      if (entry.type === 'form') out.push(...locateFields(entry.fields, [...path, 'fields']));
    }
  });
  return out;
}

/** The fields answered at one level of a response: field sets only group, forms open a new level. */
export function levelFields(entries: readonly FieldEntry[]): UnitField[] {
  return entries.flatMap((entry) => (isFieldSet(entry) ? levelFields(entry.fields) : [entry]));
}

/** Field sets directly or indirectly inside a form, with their paths (they must be inline). */
export function fieldSetsInForms(
  entries: readonly FieldEntry[],
  base: Path,
  inForm = false,
): { inline?: boolean; path: Path }[] {
  return entries.flatMap((entry, index) => {
    const path = [...base, index];
    if (isFieldSet(entry)) {
      const children = fieldSetsInForms(entry.fields, [...path, 'fields'], inForm);
      return inForm ? [{ inline: entry.inline, path }, ...children] : children;
    }
    return entry.type === 'form' ? fieldSetsInForms(entry.fields, [...path, 'fields'], true) : [];
  });
}

/** Only choices without subchoices can be selected. */
export function leafChoices(choices: readonly CategoryChoice[] | undefined): CategoryChoice[] {
  return (choices ?? []).flatMap((choice) =>
    choice.subchoices && choice.subchoices.length > 0 ? leafChoices(choice.subchoices) : [choice],
  );
}

/** What an answer carries for a choice: its value, or its label when it has none. */
export const choiceValue = (choice: CategoryChoice): ChoiceValue => choice.value ?? choice.label;

/** Values compare by their text: hypotheses carry strings for numeric or boolean choice values. */
export const sameValue = (a: unknown, b: unknown) => String(a) === String(b);

/** The fixed values a field offers, or undefined when any value goes (text, select from another field, ...). */
export function offeredValues(field: UnitField): ChoiceValue[] | undefined {
  if (field.type === 'category' || (field.type === 'select' && field.choices))
    return leafChoices(field.choices).map(choiceValue);
  if (field.type === 'boolean') return [true, false];
  return undefined;
}

/** max_responses_required defaults to 1; above 1 the answer is an array of responses. */
export const responseBounds = (field: UnitField) => ({
  min: field.min_responses_required ?? 1,
  max: field.max_responses_required ?? 1,
});

/** Every primitive inside an answer, for condition checks: arrays (of arrays) are flattened. */
export function answerValues(answer: unknown): unknown[] {
  return Array.isArray(answer) ? answer.flatMap(answerValues) : answer === undefined ? [] : [answer];
}

/** A condition holds when each named field has one of the listed values selected, and its `not` set does not hold. */
function conditionHolds(condition: FieldCondition, answers: ReadonlyMap<string, unknown>): boolean {
  const selected = (id: string, wanted: readonly ChoiceValue[]) =>
    answerValues(answers.get(id)).some((v) => wanted.some((w) => sameValue(v, w)));
  // Every key but `not` names a field; `not` holds its own set.
  const positive = Object.entries(condition).every(
    ([id, wanted]) => id === 'not' || !Array.isArray(wanted) || selected(id, wanted),
  );
  const { not } = condition;
  return positive && (not === undefined || !Object.entries(not).every(([id, wanted]) => selected(id, wanted)));
}

/** A field is shown when it has no conditions or any of its condition sets holds. */
export function isActive(field: UnitField, answers: ReadonlyMap<string, unknown>): boolean {
  return !field.conditions || field.conditions.length === 0 || field.conditions.some((c) => conditionHolds(c, answers));
}

/** Answers by field_id across the whole response (field_ids are unique over the tree). */
export function collectAnswers(
  entries: readonly FieldEntry[],
  answers: unknown,
  into = new Map<string, unknown>(),
): Map<string, unknown> {
  if (!isRecord(answers)) return into;
  const record = answers;
  for (const field of levelFields(entries)) {
    if (!Object.hasOwn(record, field.field_id)) continue;
    const answer = record[field.field_id];
    into.set(field.field_id, answer);
    if (field.type === 'form')
      for (const one of Array.isArray(answer) ? answer : [answer]) collectAnswers(field.fields, one, into);
  }
  return into;
}

export const issue = (path: Path, message: string): FitIssue => ({ path, message });
