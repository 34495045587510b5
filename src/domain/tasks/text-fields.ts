import { extendApi, generateSchema } from '@anatine/zod-openapi';
import { z } from 'zod';
import { boundedTree } from '../common/bounded.js';
import { MAX_LABELS } from '../common/input-limits.js';
import { lazySchema } from '../common/lazy-schema.js';

/**
 * Text collection fields (the `fields` array): one zod object per field type, discriminated on
 * `type`; forms nest fields and field sets. Rules that span fields (unique ids, references,
 * conditions) live in text-field-rules.ts.
 */

export const FieldIdSchema = z.string().refine((s) => s.trim() !== '', 'must be a non-empty field_id');
const ChoiceValueSchema = z.union([z.string(), z.number(), z.boolean()]);
export type ChoiceValue = z.infer<typeof ChoiceValueSchema>;

const ChoiceBaseSchema = z.object({
  label: z.string().refine((s) => s.trim() !== '', 'must be a non-empty label'),
  value: ChoiceValueSchema.optional(),
  hint: z.string().optional(),
});
export interface CategoryChoice extends z.infer<typeof ChoiceBaseSchema> {
  subchoices?: CategoryChoice[];
}
const CategoryChoiceSchema: z.ZodType<CategoryChoice> = ChoiceBaseSchema.extend({
  subchoices: extendApi(
    lazySchema(() => z.array(CategoryChoiceSchema)),
    {
      type: 'array',
      items: { type: 'object', description: 'A choice of the same shape: label, value, hint, subchoices' },
    },
  ).optional(),
}).strict();
/** At most MAX_LABELS choices with their subchoices, counted before any is checked. */
const ChoicesSchema = boundedTree(CategoryChoiceSchema, {
  min: 1,
  treeMax: MAX_LABELS,
  childKey: 'subchoices',
  what: 'choices',
});

const ChoiceValuesSchema = z.array(ChoiceValueSchema).min(1);
/** field_id -> values of which one must be selected; keys combine with AND; `not` negates its own set. */
export const FieldConditionSchema = extendApi(
  z.object({ not: z.record(ChoiceValuesSchema).optional() }).catchall(ChoiceValuesSchema),
  {
    description:
      'Maps field_ids to choice values (one of them must be selected); ' +
      'several keys must all hold; `not` holds when its own set does not',
  },
);
export type FieldCondition = z.infer<typeof FieldConditionSchema>;

const UnitFieldShape = {
  field_id: FieldIdSchema,
  title: z.string(),
  description: z.string().optional(),
  hint: z.string().optional(),
  required: z.boolean().optional(),
  min_responses_required: z.number().int().positive().optional(),
  max_responses_required: z.number().int().positive().max(100).optional(),
  conditions: z.array(FieldConditionSchema).optional(),
};
const unit = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...UnitFieldShape, ...shape }).strict();

const Count = z.number().int().nonnegative();
const DATE_PARTS = ['year', 'month', 'day', 'hour', 'minute'] as const;

const TextFieldSchema = unit('text', {
  max_characters: z.number().int().positive().optional(),
  show_word_counter: z.boolean().optional(),
  show_markdown_preview: z.boolean().optional(),
  max_tokens: z.number().int().positive().optional(),
  min_tokens: Count.optional(),
  disable_pasting: z.boolean().optional(),
});
const BooleanFieldSchema = unit('boolean', {});
const NumberFieldSchema = unit('number', {
  use_slider: z.boolean().optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  step: z.number().positive().optional(),
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  mid_label: z.string().optional(),
});
export type DatePart = (typeof DATE_PARTS)[number];
/** Valid values of each part, for defaults and answers. */
export const DATE_PART_RANGES: Record<DatePart, [number, number]> = {
  year: [1, 9999],
  month: [1, 12],
  day: [1, 31],
  hour: [0, 23],
  minute: [0, 59],
};
const datePart = (part: DatePart) =>
  z.number().int().min(DATE_PART_RANGES[part][0]).max(DATE_PART_RANGES[part][1]).optional();
const DatetimeFieldSchema = unit('datetime', {
  include: z.array(z.enum(DATE_PARTS)).min(1),
  defaults: z
    .object({
      year: datePart('year'),
      month: datePart('month'),
      day: datePart('day'),
      hour: datePart('hour'),
      minute: datePart('minute'),
    })
    .strict()
    .optional(),
});
const CategoryFieldSchema = unit('category', {
  choices: ChoicesSchema,
  min_choices: Count.optional(),
  max_choices: z.number().int().positive().optional(),
});
const SelectFieldSchema = unit('select', {
  choices: ChoicesSchema.optional(),
  choices_from_field: FieldIdSchema.optional(),
});
export const TIME_RANGE_MAX_SECONDS = 86400;
const TimeRangeFieldSchema = unit('time_range', {
  default_seconds: z.array(z.number().int().min(0).max(TIME_RANGE_MAX_SECONDS)).length(2),
  increment_seconds: z.number().int().min(1).max(3600).optional(),
  default_from_field: FieldIdSchema.optional(),
});
const RankingOrderFieldSchema = unit('ranking_order', {
  first_label: z.string().optional(),
  last_label: z.string().optional(),
  num_items_to_rank: z.number().int().positive().optional(),
});

/** Children of forms and field sets: described in OpenAPI as the same entries as the top-level `fields`. */
const childEntries = (): z.ZodType<FieldEntry[], z.ZodTypeDef, unknown> =>
  extendApi(
    lazySchema(() => z.array(FieldEntrySchema).min(1)),
    {
      type: 'array',
      minItems: 1,
      items: { type: 'object', description: 'A field or field set, as in the top-level fields' },
    },
  );

const FormBaseSchema = unit('form', {});
interface FormField extends z.infer<typeof FormBaseSchema> {
  fields: FieldEntry[];
}
const FormFieldSchema = FormBaseSchema.extend({ fields: childEntries() });

/** A field set groups fields visually; it has no type and no field_id of its own. */
const FieldSetBaseSchema = z
  .object({ inline: z.boolean().optional(), title: z.string().optional(), description: z.string().optional() })
  .strict();
export interface FieldSet extends z.infer<typeof FieldSetBaseSchema> {
  fields: FieldEntry[];
}
const FieldSetSchema = FieldSetBaseSchema.extend({ fields: childEntries() });

const LEAF_FIELD_SCHEMAS = [
  TextFieldSchema,
  BooleanFieldSchema,
  NumberFieldSchema,
  DatetimeFieldSchema,
  CategoryFieldSchema,
  SelectFieldSchema,
  TimeRangeFieldSchema,
  RankingOrderFieldSchema,
] as const;
type LeafField = z.infer<(typeof LEAF_FIELD_SCHEMAS)[number]>;
const UnitFieldSchema = z.discriminatedUnion('type', [...LEAF_FIELD_SCHEMAS, FormFieldSchema]);
export type UnitField = LeafField | FormField;
export type FieldEntry = UnitField | FieldSet;

export const isFieldSet = (entry: FieldEntry): entry is FieldSet => !('type' in entry);

/**
 * A field or a field set. A plain union would report a broken field by the field-set branch's
 * errors ("fields is required"), so the entry is dispatched: anything with a type or field_id is a
 * field, the rest a field set, and only that schema's issues are reported.
 */
const FieldEntrySchema: z.ZodType<FieldEntry, z.ZodTypeDef, unknown> = z
  .unknown()
  .transform((value, ctx): FieldEntry => {
    const isField = typeof value === 'object' && value !== null && ('type' in value || 'field_id' in value);
    const result = isField ? UnitFieldSchema.safeParse(value) : FieldSetSchema.safeParse(value);
    if (result.success) return result.data;
    // Fatal: the enclosing request's cross-field rules must not run over a broken field.
    for (const issue of result.error.issues) ctx.addIssue({ ...issue, fatal: true });
    return z.NEVER;
  });
// Generated only now: the forms' and field sets' lazy `fields` refer to FieldEntrySchema, and
// generating reads them (isOptional), which would fail while FieldEntrySchema is not yet defined.
// Its OpenAPI metadata (what extendApi would set) is therefore attached here.
Object.assign(FieldEntrySchema, {
  metaOpenApi: {
    description:
      'A field (discriminated on type), or a field set ({fields, inline, title, description}) grouping fields',
    anyOf: [generateSchema(UnitFieldSchema), generateSchema(FieldSetSchema)],
  },
});

export const FieldListSchema = z.array(FieldEntrySchema).min(1);
