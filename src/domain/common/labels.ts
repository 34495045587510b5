import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/** LabelDescription: a label name, or an object with a choice and nested subchoices. */
export interface LabelObject {
  choice: string;
  subchoices?: LabelDescription[];
  instance_label?: boolean;
  display?: string;
}
export type LabelDescription = string | LabelObject;

const LabelNameSchema = z.string().refine((s) => s.trim() !== '', 'must be a non-empty label name');

export const LabelObjectSchema: z.ZodType<LabelObject> = extendApi(
  z
    .object({
      choice: LabelNameSchema,
      subchoices: z.lazy(() => z.array(LabelDescriptionSchema)).optional(),
      instance_label: z.boolean().optional(),
      display: z.string().optional(),
    })
    .strict(),
  {
    type: 'object',
    required: ['choice'],
    properties: {
      choice: { type: 'string' },
      subchoices: { type: 'array', items: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/LabelObject' }] } },
      instance_label: { type: 'boolean' },
      display: { type: 'string' },
    },
  },
);

export const LabelDescriptionSchema: z.ZodType<LabelDescription> = z.union([LabelNameSchema, LabelObjectSchema], {
  errorMap: () => ({ message: 'must be a label name or an object {choice, subchoices?, instance_label?, display?}' }),
});

export const LabelListSchema = z.array(LabelDescriptionSchema);

/** The labels a response may carry: only leaves, since a choice with subchoices is navigation. */
export function leafLabels(labels: readonly LabelDescription[] | undefined): string[] {
  const out: string[] = [];
  const walk = (list: readonly LabelDescription[]) => {
    for (const entry of list) {
      if (typeof entry === 'string') out.push(entry);
      else if (entry.subchoices && entry.subchoices.length > 0) walk(entry.subchoices);
      else out.push(entry.choice);
    }
  };
  walk(labels ?? []);
  return out;
}

/** Every name in the tree, parents included: conditions may name a parent choice. */
export function allLabelNames(labels: readonly LabelDescription[] | undefined): string[] {
  const out: string[] = [];
  const walk = (list: readonly LabelDescription[]) => {
    for (const entry of list) {
      if (typeof entry === 'string') out.push(entry);
      else {
        out.push(entry.choice);
        walk(entry.subchoices ?? []);
      }
    }
  };
  walk(labels ?? []);
  return out;
}

/** Names that occur more than once anywhere in the tree. */
export function duplicateLabelNames(labels: readonly LabelDescription[] | undefined): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const name of allLabelNames(labels)) (seen.has(name) ? dupes : seen).add(name);
  return [...dupes];
}
