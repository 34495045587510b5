import { z } from 'zod';
import { type LabelDescription, LabelListSchema, leafLabels } from '../common/labels.js';
import { own } from '../common/own.js';
import { type Report, reportInto } from './report.js';

/**
 * annotation_attributes: questions asked per annotation. The interface names the categorical kind
 * (`category`, the default) exactly; the other kinds' type strings are not shown, so any string
 * is accepted there and kind-specific settings are kept as given.
 */

const OneOrManySchema = z.union([z.string(), z.array(z.string()).min(1)]);

const AttributeConditionsSchema = z
  .object({
    label_condition: z.union([OneOrManySchema, z.object({ label: OneOrManySchema }).strict()]).optional(),
    attribute_conditions: z.union([z.record(OneOrManySchema), z.array(z.record(OneOrManySchema))]).optional(),
  })
  .strict();

export const AnnotationAttributeSchema = z
  .object({
    type: z.string().min(1).optional(),
    description: z.string(),
    choices: LabelListSchema.optional(),
    conditions: AttributeConditionsSchema.optional(),
  })
  .passthrough()
  .superRefine((attr, ctx) => {
    if ((attr.type ?? 'category') === 'category' && (!attr.choices || attr.choices.length === 0)) {
      reportInto(ctx)(['choices'], 'is required and must not be empty for a category attribute');
    }
  });

export const AnnotationAttributesSchema = z.record(AnnotationAttributeSchema);
export type AnnotationAttributes = z.infer<typeof AnnotationAttributesSchema>;
type Conditions = z.infer<typeof AttributeConditionsSchema>;

const asList = (v: string | string[]) => (Array.isArray(v) ? v : [v]);

export function conditionLabels(conditions: Conditions | undefined): string[] {
  const lc = conditions?.label_condition;
  if (lc === undefined) return [];
  return typeof lc === 'object' && !Array.isArray(lc) ? asList(lc.label) : asList(lc);
}

export function conditionAttributes(conditions: Conditions | undefined): Record<string, string[]> {
  const ac = conditions?.attribute_conditions;
  if (!ac) return {};
  // A Map, not `{}`: a condition on an attribute named "constructor" must not find Object's.
  const out = new Map<string, string[]>();
  for (const record of Array.isArray(ac) ? ac : [ac]) {
    for (const [name, value] of Object.entries(record)) out.set(name, [...(out.get(name) ?? []), ...asList(value)]);
  }
  return Object.fromEntries(out);
}

/** The values an attribute may take in a response, when it is categorical. */
export function attributeChoices(attr: { type?: string; choices?: LabelDescription[] }): string[] | undefined {
  return (attr.type ?? 'category') === 'category' ? leafLabels(attr.choices) : undefined;
}

/**
 * Cross-checks conditions against the task: a label condition must name one of the task's labels,
 * an attribute condition an attribute of the task (and one of its choices).
 */
export function checkAttributeConditions(
  attributes: AnnotationAttributes | undefined,
  knownLabels: Set<string>,
  report: Report,
  basePath: (string | number)[] = ['annotation_attributes'],
): void {
  for (const [name, attr] of Object.entries(attributes ?? {})) {
    const path = [...basePath, name, 'conditions'];
    for (const label of conditionLabels(attr.conditions)) {
      if (!knownLabels.has(label)) {
        report([...path, 'label_condition'], `names label "${label}", which is not one of the task's labels`);
      }
    }
    for (const [other, values] of Object.entries(conditionAttributes(attr.conditions))) {
      const target = own(attributes, other);
      if (!target) {
        report(
          [...path, 'attribute_conditions', other],
          `names attribute "${other}", which is not defined in annotation_attributes`,
        );
        continue;
      }
      const choices = attributeChoices(target);
      const offered = new Set(choices);
      const unknown = choices ? values.filter((v) => !offered.has(v)) : [];
      if (unknown.length > 0) {
        report(
          [...path, 'attribute_conditions', other],
          `uses value(s) ${unknown.map((v) => `"${v}"`).join(', ')} that attribute "${other}" does not offer`,
        );
      }
    }
  }
}
