import type { TextCollectionAttachment } from '../domain/tasks/text-attachments.js';
import {
  answerValues,
  choiceValue,
  isActive,
  leafChoices,
  levelFields,
  responseBounds,
} from '../domain/tasks/text-field-tree.js';
import type { DatePart, FieldEntry, UnitField } from '../domain/tasks/text-fields.js';
import type { Rng } from '../runtime/random.js';

/**
 * Answers for a text collection task: every shown field answered with a value its settings allow
 * (choices, counts, bounds), `min_responses_required` responses where several are asked for.
 */

interface Params {
  attachments: TextCollectionAttachment[];
  fields: FieldEntry[];
}

interface Context {
  rng: Rng;
  /** Answers so far by field_id: conditions and choices_from_field read them. */
  all: Map<string, unknown>;
  attachmentCount: number;
}

export function synthesizeTextCollection(params: Params, rng: Rng): Record<string, unknown> {
  return answerLevel(params.fields, { rng, all: new Map(), attachmentCount: params.attachments.length });
}

/**
 * Fields are answered in passes until nothing changes, since a condition may name a field that
 * comes later. A select filled from another field waits for that field in the first round.
 */
function answerLevel(entries: readonly FieldEntry[], ctx: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = levelFields(entries);
  for (const patient of [true, false]) {
    for (let changed = true; changed; ) {
      changed = false;
      for (const field of fields) {
        if (Object.hasOwn(out, field.field_id) || !isActive(field, ctx.all) || (patient && waitsForSource(field, ctx)))
          continue;
        out[field.field_id] = answerField(field, ctx);
        ctx.all.set(field.field_id, out[field.field_id]);
        changed = true;
      }
    }
  }
  return out;
}

const waitsForSource = (field: UnitField, ctx: Context) =>
  field.type === 'select' &&
  !field.choices &&
  field.choices_from_field !== undefined &&
  !ctx.all.has(field.choices_from_field);

function answerField(field: UnitField, ctx: Context): unknown {
  const { min, max } = responseBounds(field);
  if (max === 1) return answerOne(field, ctx);
  return Array.from({ length: min }, () => answerOne(field, ctx));
}

function answerOne(field: UnitField, ctx: Context): unknown {
  const { rng } = ctx;
  switch (field.type) {
    case 'text':
      return text(field, rng);
    case 'boolean':
      return rng.next() < 0.5;
    case 'number':
      return number(field, rng);
    case 'datetime':
      return Object.fromEntries(field.include.map((part) => [part, field.defaults?.[part] ?? datePart(part, rng)]));
    case 'category':
      return selection(
        leafChoices(field.choices).map(choiceValue),
        Math.max(1, field.min_choices ?? 1),
        field.max_choices ?? 1,
        rng,
      );
    case 'select':
      return selectAnswer(field, ctx);
    case 'time_range':
      return [...field.default_seconds];
    case 'ranking_order':
      return ranking(field, ctx);
    case 'form':
      return answerLevel(field.fields, ctx);
  }
}

const WORDS = ['the', 'label', 'reads', 'clearly', 'as', 'shown', 'in', 'attachment', 'one', 'today'];

/** A sentence within min_tokens/max_tokens words and max_characters (one-letter words when space is short). */
function text(field: Extract<UnitField, { type: 'text' }>, rng: Rng): string {
  const count = Math.min(Math.max(6, field.min_tokens ?? 0), field.max_tokens ?? Infinity);
  // A random first word, so several responses to one field differ.
  const offset = rng.int(0, WORDS.length - 1);
  const sentence = Array.from({ length: count }, (_, i) => WORDS[(offset + i) % WORDS.length]).join(' ');
  if (field.max_characters === undefined || sentence.length <= field.max_characters) return sentence;
  const fit = Math.max(field.min_tokens ?? 1, 1, Math.min(count, Math.floor((field.max_characters + 1) / 2)));
  return Array.from({ length: fit }, () => 'a').join(' ');
}

function number(field: Extract<UnitField, { type: 'number' }>, rng: Rng): number {
  const lo = field.min ?? (field.max !== undefined ? field.max - 100 : 0);
  const hi = field.max ?? lo + 100;
  const raw = field.step
    ? lo + rng.int(0, Math.floor((hi - lo) / field.step + 1e-9)) * field.step
    : rng.between(lo, hi);
  // Rounding guards against 0.1 * 3 = 0.30000000000000004 slipping past max.
  return Math.min(hi, Math.max(lo, Number(raw.toFixed(10))));
}

/** Plausible dates: recent years, and days every month has. */
const DATE_RANGES: Record<DatePart, [number, number]> = {
  year: [2020, 2026],
  month: [1, 12],
  day: [1, 28],
  hour: [0, 23],
  minute: [0, 59],
};
const datePart = (part: DatePart, rng: Rng) => rng.int(...DATE_RANGES[part]);

/** `count` consecutive values from a random start: distinct, and within the field's bounds. */
function selection<T>(values: readonly T[], min: number, max: number, rng: Rng): T[] {
  const count = Math.min(Math.max(min, 1), max, values.length);
  const start = rng.int(0, values.length - 1);
  return Array.from({ length: count }, (_, i) => values[(start + i) % values.length]).filter(
    (value): value is T => value !== undefined,
  );
}

function selectAnswer(field: Extract<UnitField, { type: 'select' }>, ctx: Context): unknown[] {
  if (field.choices) return selection(leafChoices(field.choices).map(choiceValue), 1, 1, ctx.rng);
  const offered = field.choices_from_field !== undefined ? answerValues(ctx.all.get(field.choices_from_field)) : [];
  // The source field was never shown: any option goes.
  return offered.length > 0 ? [offered[0]] : ['synthesized option'];
}

/** Attachment indices, best first, as many as num_items_to_rank asks (all attachments by default). */
function ranking(field: Extract<UnitField, { type: 'ranking_order' }>, ctx: Context): number[] {
  const indices = Array.from({ length: ctx.attachmentCount }, (_, i) => i);
  for (let i = indices.length - 1; i > 0; i -= 1) {
    const j = ctx.rng.int(0, i);
    const [a, b] = [indices[i], indices[j]];
    // Both are there (0 <= j <= i < length); the check only satisfies the type.
    if (a !== undefined && b !== undefined) [indices[i], indices[j]] = [b, a];
  }
  return indices.slice(0, Math.min(field.num_items_to_rank ?? indices.length, indices.length));
}
