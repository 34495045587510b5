import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { boundedTree } from './bounded.js';
import { MAX_LABELS } from './input-limits.js';
import { lazySchema } from './lazy-schema.js';

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
      subchoices: lazySchema(() => z.array(LabelDescriptionSchema)).optional(),
      instance_label: z.boolean().optional(),
      display: z.string().optional(),
    })
    .strict(),
  {
    type: 'object',
    required: ['choice'],
    properties: {
      choice: { type: 'string' },
      subchoices: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { $ref: '#/components/schemas/LabelObject' }] },
      },
      instance_label: { type: 'boolean' },
      display: { type: 'string' },
    },
  },
);

const LabelDescriptionSchema: z.ZodType<LabelDescription> = z.union([LabelNameSchema, LabelObjectSchema], {
  errorMap: () => ({ message: 'must be a label name or an object {choice, subchoices?, instance_label?, display?}' }),
});

/** A label tree: at most MAX_LABELS names in all, subchoices included, counted before any is checked. */
export const labelList = (bounds: { min?: number; max?: number } = {}) =>
  boundedTree(LabelDescriptionSchema, { ...bounds, treeMax: MAX_LABELS, childKey: 'subchoices', what: 'labels' });

export const LabelListSchema = labelList();

/**
 * Visits a label tree depth first, in order, without recursion (a tree is bounded by the body's
 * depth limit, but these walkers also run on stored and synthesized trees): `visit` gets each entry
 * and answers whether to descend into its subchoices.
 */
function walkLabels(labels: readonly LabelDescription[], visit: (entry: LabelDescription) => boolean): void {
  const stack: { list: readonly LabelDescription[]; at: number }[] = [{ list: labels, at: 0 }];
  for (let top = stack.at(-1); top !== undefined; top = stack.at(-1)) {
    const entry = top.list[top.at];
    if (entry === undefined) {
      stack.pop(); // past the end of this list
      continue;
    }
    top.at += 1;
    if (visit(entry) && typeof entry !== 'string' && entry.subchoices) stack.push({ list: entry.subchoices, at: 0 });
  }
}

/** The labels a response may carry: only leaves, since a choice with subchoices is navigation. */
export function leafLabels(labels: readonly LabelDescription[] | undefined): string[] {
  const out: string[] = [];
  walkLabels(labels ?? [], (entry) => {
    if (typeof entry === 'string') out.push(entry);
    else if (entry.subchoices && entry.subchoices.length > 0) return true;
    else out.push(entry.choice);
    return false;
  });
  return out;
}

/** Every name in the tree, parents included: conditions may name a parent choice. */
export function allLabelNames(labels: readonly LabelDescription[] | undefined): string[] {
  const out: string[] = [];
  walkLabels(labels ?? [], (entry) => {
    out.push(typeof entry === 'string' ? entry : entry.choice);
    return true;
  });
  return out;
}

/** Names that occur more than once anywhere in the tree. */
export function duplicateLabelNames(labels: readonly LabelDescription[] | undefined): string[] {
  const seen = new Set<string>();
  const dupes = new Set<string>();
  for (const name of allLabelNames(labels)) (seen.has(name) ? dupes : seen).add(name);
  return [...dupes];
}
