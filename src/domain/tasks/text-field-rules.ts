import { repeatedValues } from '../common/repeated.js';
import type { FitIssue } from './annotation-fit.js';
import {
  choiceValue,
  fieldSetsInForms,
  issue,
  type LocatedField,
  leafChoices,
  locateFields,
  offeredValues,
  type Path,
  responseBounds,
} from './text-field-tree.js';
import type { CategoryChoice, FieldEntry, UnitField } from './text-fields.js';

/** Creation rules of text collection fields that span more than one field or setting. */

export function checkFieldTree(
  entries: readonly FieldEntry[],
  base: Path = ['fields'],
): { issues: FitIssue[]; byId: Map<string, UnitField> } {
  const located = locateFields(entries, base);
  const byId = new Map<string, UnitField>();
  const firstPath = new Map<string, Path>();
  const issues: FitIssue[] = [];
  for (const { field, path } of located) {
    const seen = firstPath.get(field.field_id);
    if (seen)
      issues.push(
        issue(
          [...path, 'field_id'],
          `must be unique across all fields, nested ones included ` +
            `("${field.field_id}" is also used at ${describe(seen)})`,
        ),
      );
    else {
      firstPath.set(field.field_id, path);
      byId.set(field.field_id, field);
    }
  }
  for (const entry of located) issues.push(...checkSettings(entry), ...checkReferences(entry, byId));
  for (const set of fieldSetsInForms(entries, base)) {
    if (set.inline !== true) issues.push(issue([...set.path, 'inline'], 'must be true for a field set inside a form'));
  }
  return { issues, byId };
}

const describe = (path: Path) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

function checkSettings({ field, path }: LocatedField): FitIssue[] {
  const issues: FitIssue[] = [];
  const { min, max } = responseBounds(field);
  if (max < min)
    issues.push(
      issue([...path, 'max_responses_required'], `must be at least min_responses_required (${min}); it defaults to 1`),
    );
  switch (field.type) {
    case 'text':
      if (field.min_tokens !== undefined && field.max_tokens !== undefined && field.max_tokens < field.min_tokens) {
        issues.push(issue([...path, 'max_tokens'], `must be at least min_tokens (${field.min_tokens})`));
      }
      if (
        field.min_tokens !== undefined &&
        field.max_characters !== undefined &&
        2 * field.min_tokens - 1 > field.max_characters
      ) {
        issues.push(
          issue(
            [...path, 'max_characters'],
            `must leave room for min_tokens ` +
              `(${field.min_tokens} words need at least ${2 * field.min_tokens - 1} characters)`,
          ),
        );
      }
      break;
    case 'number':
      if (field.min !== undefined && field.max !== undefined && field.max < field.min)
        issues.push(issue([...path, 'max'], `must be at least min (${field.min})`));
      break;
    case 'datetime': {
      const repeated = field.include.filter((part, i) => field.include.indexOf(part) !== i);
      if (repeated.length > 0)
        issues.push(issue([...path, 'include'], `must not repeat parts (repeated: ${repeated.join(', ')})`));
      break;
    }
    case 'category':
      issues.push(...checkChoices(field.choices, [...path, 'choices']), ...checkChoiceCounts(field, path));
      break;
    case 'select':
      if (!field.choices && field.choices_from_field === undefined)
        issues.push(issue([...path, 'choices'], 'is required unless choices_from_field is given'));
      issues.push(...checkChoices(field.choices, [...path, 'choices']));
      break;
    case 'time_range': {
      // The schema makes default_seconds a pair.
      const [start = 0, end = 0] = field.default_seconds;
      if (start > end) issues.push(issue([...path, 'default_seconds'], 'must be in order: start at most end'));
      break;
    }
  }
  return issues;
}

/** Selectable values must be unique, or an answer could not say which choice it means. */
function checkChoices(choices: readonly CategoryChoice[] | undefined, path: Path): FitIssue[] {
  const values = leafChoices(choices).map(choiceValue);
  // Values compare by their text (sameValue).
  const repeated = repeatedValues(values, String);
  return repeated.length > 0
    ? [issue(path, `must not repeat selectable values (repeated: ${repeated.map(String).join(', ')})`)]
    : [];
}

function checkChoiceCounts(field: Extract<UnitField, { type: 'category' }>, path: Path): FitIssue[] {
  const issues: FitIssue[] = [];
  const min = field.min_choices ?? 0;
  const max = field.max_choices ?? 1;
  if (max < min)
    issues.push(issue([...path, 'max_choices'], `must be at least min_choices (${min}); it defaults to 1`));
  const selectable = leafChoices(field.choices).length;
  if (min > selectable)
    issues.push(issue([...path, 'min_choices'], `must be at most the number of selectable choices (${selectable})`));
  return issues;
}

/** choices_from_field, default_from_field and conditions must name other fields of the task. */
function checkReferences({ field, path }: LocatedField, byId: ReadonlyMap<string, UnitField>): FitIssue[] {
  const issues: FitIssue[] = [];
  const refer = (id: string, at: Path) => {
    if (id === field.field_id) issues.push(issue(at, 'must name another field, not the field itself'));
    else if (!byId.has(id)) issues.push(issue(at, `names field "${id}", which is not a field_id of the task`));
    return byId.get(id);
  };
  if (field.type === 'select' && field.choices_from_field !== undefined)
    refer(field.choices_from_field, [...path, 'choices_from_field']);
  if (field.type === 'time_range' && field.default_from_field !== undefined)
    refer(field.default_from_field, [...path, 'default_from_field']);
  field.conditions?.forEach((condition, index) => {
    const { not, ...positive } = condition;
    const sets: [Record<string, unknown[]>, Path][] = [[positive, [...path, 'conditions', index]]];
    if (not) sets.push([not, [...path, 'conditions', index, 'not']]);
    for (const [set, at] of sets) {
      for (const [id, values] of Object.entries(set)) {
        const target = refer(id, [...at, id]);
        const offered = target && offeredValues(target);
        // By text, as sameValue compares: one set instead of a scan of the choices per value.
        const texts = offered && new Set(offered.map(String));
        const unknown = texts ? values.filter((v) => !texts.has(String(v))) : [];
        if (unknown.length > 0)
          issues.push(
            issue(
              [...at, id],
              `uses value(s) ${unknown.map((v) => JSON.stringify(v)).join(', ')} that field "${id}" does not offer`,
            ),
          );
      }
    }
  });
  return issues;
}
