import type { AnnotationAttributes } from '../domain/tasks/attributes.js';
import { attributeChoices, conditionAttributes, conditionLabels } from '../domain/tasks/attributes.js';
import type { Rng } from '../runtime/random.js';

/**
 * Answers the annotation attributes that apply to an annotation with `label`: an attribute whose
 * conditions do not hold is not asked, exactly as a tasker would not see it.
 */
export function synthesizeAttributes(
  attributes: AnnotationAttributes | undefined,
  label: string,
  rng: Rng,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const entries = Object.entries(attributes ?? {});
  // Unconditional attributes first, so attribute conditions can see their answers.
  entries.sort(([, a], [, b]) => Number(Boolean(a.conditions)) - Number(Boolean(b.conditions)));
  for (const [name, attr] of entries) {
    const labels = conditionLabels(attr.conditions);
    if (labels.length > 0 && !labels.includes(label)) continue;
    const needs = conditionAttributes(attr.conditions);
    if (!Object.entries(needs).every(([other, allowed]) => allowed.includes(String(values[other])))) continue;
    values[name] = answer(attr, rng);
  }
  return values;
}

function answer(attr: AnnotationAttributes[string], rng: Rng): unknown {
  const choices = attributeChoices(attr);
  if (choices) return choices[0];
  switch (attr.type) {
    case 'number':
    case 'numerical':
      return rng.int(0, 10);
    case 'angle':
      return rng.int(0, 359);
    case 'text':
      return 'synthesized answer';
    default:
      return attr.choices && attr.choices.length > 0 ? attributeChoicesOrFirst(attr) : 'synthesized';
  }
}

const attributeChoicesOrFirst = (attr: AnnotationAttributes[string]) => {
  const first = attr.choices?.[0];
  return typeof first === 'string' ? first : first?.choice;
};
