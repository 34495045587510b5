import type { FitIssue } from './annotation-fit.js';
import { isRecord } from './is-record.js';
import {
  answerValues,
  choiceValue,
  isActive,
  issue,
  leafChoices,
  levelFields,
  type Path,
  responseBounds,
  sameValue,
} from './text-field-tree.js';
import { DATE_PART_RANGES, type FieldEntry, TIME_RANGE_MAX_SECONDS, type UnitField } from './text-fields.js';

/**
 * Checks `response.annotations` of a text collection task: answers only for the task's field_ids,
 * each of its field's shape (an array of responses when max_responses_required is above 1), and
 * every required field answered while its conditions hold.
 */

export interface AnswerContext {
  /** Answers by field_id over the whole response: conditions and choices_from_field look here. */
  all: ReadonlyMap<string, unknown>;
  /** ranking_order answers rank the task's attachments by index. */
  attachmentCount: number;
}

export function checkAnswers(
  entries: readonly FieldEntry[],
  answers: unknown,
  path: Path,
  context: AnswerContext,
): FitIssue[] {
  if (!isRecord(answers)) return [issue(path, 'must be an object keyed by field_id')];
  const record = answers;
  const fields = levelFields(entries);
  const issues: FitIssue[] = [];
  for (const key of Object.keys(record)) {
    if (!fields.some((f) => f.field_id === key))
      issues.push(issue([...path, key], 'is not a field_id of the task (at this level)'));
  }
  for (const field of fields) {
    const at = [...path, field.field_id];
    if (!Object.hasOwn(record, field.field_id)) {
      if (field.required && isActive(field, context.all))
        issues.push(issue(at, 'is required (the field is required and shown)'));
      continue;
    }
    issues.push(...checkResponses(field, record[field.field_id], at, context));
  }
  return issues;
}

function checkResponses(field: UnitField, answer: unknown, path: Path, context: AnswerContext): FitIssue[] {
  const { min, max } = responseBounds(field);
  if (max === 1) return checkOne(field, answer, path, context);
  if (!Array.isArray(answer) || answer.length < min || answer.length > max) {
    return [issue(path, `must be an array of ${min} to ${max} responses (max_responses_required is ${max})`)];
  }
  return answer.flatMap((one, index) => checkOne(field, one, [...path, index], context));
}

function checkOne(field: UnitField, answer: unknown, path: Path, context: AnswerContext): FitIssue[] {
  switch (field.type) {
    case 'text':
      return checkText(field, answer, path);
    case 'boolean':
      return typeof answer === 'boolean' ? [] : [issue(path, 'must be true or false for a boolean field')];
    case 'number':
      return checkNumber(field, answer, path);
    case 'datetime':
      return checkDatetime(field, answer, path);
    case 'category':
      return checkSelection(
        answer,
        path,
        leafChoices(field.choices).map(choiceValue),
        field.min_choices ?? 1,
        field.max_choices ?? 1,
      );
    case 'select': {
      const offered = field.choices
        ? leafChoices(field.choices).map(choiceValue)
        : sourceValues(field.choices_from_field, context);
      return checkSelection(answer, path, offered, 1, Infinity);
    }
    case 'time_range':
      return checkTimeRange(answer, path);
    case 'ranking_order':
      return checkRanking(field, answer, path, context.attachmentCount);
    case 'form':
      return checkAnswers(field.fields, answer, path, context);
  }
}

/** Options of a select filled from another field: that field's answers, when it was answered. */
function sourceValues(id: string | undefined, context: AnswerContext): unknown[] | undefined {
  return id !== undefined && context.all.has(id) ? answerValues(context.all.get(id)) : undefined;
}

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

function checkText(field: Extract<UnitField, { type: 'text' }>, answer: unknown, path: Path): FitIssue[] {
  if (typeof answer !== 'string') return [issue(path, 'must be a string for a text field')];
  if (field.max_characters !== undefined && answer.length > field.max_characters)
    return [issue(path, `must have at most ${field.max_characters} characters (max_characters)`)];
  const words = wordCount(answer);
  if (field.min_tokens !== undefined && words < field.min_tokens)
    return [issue(path, `must have at least ${field.min_tokens} words (min_tokens)`)];
  if (field.max_tokens !== undefined && words > field.max_tokens)
    return [issue(path, `must have at most ${field.max_tokens} words (max_tokens)`)];
  return [];
}

function checkNumber(field: Extract<UnitField, { type: 'number' }>, answer: unknown, path: Path): FitIssue[] {
  if (typeof answer !== 'number' || !Number.isFinite(answer))
    return [issue(path, 'must be a number for a number field')];
  if (field.min !== undefined && answer < field.min) return [issue(path, `must be at least min (${field.min})`)];
  if (field.max !== undefined && answer > field.max) return [issue(path, `must be at most max (${field.max})`)];
  return [];
}

/** A datetime answer is an object with an integer for each included part, e.g. {year: 2026, month: 1}. */
function checkDatetime(field: Extract<UnitField, { type: 'datetime' }>, answer: unknown, path: Path): FitIssue[] {
  if (!isRecord(answer)) return [issue(path, `must be an object with the parts ${field.include.join(', ')}`)];
  const parts = answer;
  const included = new Set<string>(field.include);
  const issues = Object.keys(parts)
    .filter((k) => !included.has(k))
    .map((k) => issue([...path, k], 'is not a part the field includes'));
  for (const part of field.include) {
    const [lo, hi] = DATE_PART_RANGES[part];
    const value = parts[part];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < lo || value > hi)
      issues.push(issue([...path, part], `must be an integer from ${lo} to ${hi}`));
  }
  return issues;
}

/** Category and select answers: an array of selected values, each offered, none repeated. */
function checkSelection(
  answer: unknown,
  path: Path,
  offered: readonly unknown[] | undefined,
  min: number,
  max: number,
): FitIssue[] {
  if (!Array.isArray(answer)) return [issue(path, 'must be an array of selected values')];
  if (answer.length < min || answer.length > max)
    return [
      issue(
        path,
        `must select ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} ` +
          `value(s) (got ${answer.length})`,
      ),
    ];
  const unknown = offered ? answer.filter((v) => !offered.some((o) => sameValue(o, v) && typeof o === typeof v)) : [];
  if (unknown.length > 0)
    return [
      issue(
        path,
        `has value(s) ${unknown.map((v) => JSON.stringify(v)).join(', ')} ` +
          `that are not selectable choices (${offered?.map((o) => JSON.stringify(o)).join(', ')})`,
      ),
    ];
  if (new Set(answer.map(String)).size !== answer.length) return [issue(path, 'must not select a value twice')];
  return [];
}

function checkTimeRange(answer: unknown, path: Path): FitIssue[] {
  const ok =
    Array.isArray(answer) &&
    answer.length === 2 &&
    answer.every((s) => Number.isInteger(s) && s >= 0 && s <= TIME_RANGE_MAX_SECONDS);
  if (!ok) return [issue(path, `must be [start, end]: 2 integers of seconds in [0, ${TIME_RANGE_MAX_SECONDS}]`)];
  return answer[0] <= answer[1] ? [] : [issue(path, 'must be in order: start at most end')];
}

/** A ranking: distinct attachment indices (0-based), best first; `required` asks for all num_items_to_rank. */
function checkRanking(
  field: Extract<UnitField, { type: 'ranking_order' }>,
  answer: unknown,
  path: Path,
  attachmentCount: number,
): FitIssue[] {
  const count = Math.min(field.num_items_to_rank ?? attachmentCount, attachmentCount);
  if (!Array.isArray(answer) || !answer.every((i) => Number.isInteger(i) && i >= 0 && i < attachmentCount)) {
    return [issue(path, `must be an ordered array of attachment indices (0 to ${attachmentCount - 1})`)];
  }
  if (new Set(answer).size !== answer.length) return [issue(path, 'must not rank an attachment twice')];
  if (answer.length > count || (field.required && answer.length !== count))
    return [issue(path, `must rank ${field.required ? 'exactly' : 'at most'} ${count} item(s) (num_items_to_rank)`)];
  return [];
}
