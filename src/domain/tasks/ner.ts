import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { lazySchema } from '../common/lazy-schema.js';
import { repeatedValues } from '../common/repeated.js';
import type { FitIssue } from './annotation-fit.js';

/** Named entity recognition: label trees, relationship definitions, and the response shape. */

const NonEmpty = (what: string) => z.string().refine((s) => s.trim() !== '', `must be a non-empty ${what}`);

const NerAttributeSchema = z
  .object({
    type: z.literal('select'),
    options: z
      .array(z.object({ value: NonEmpty('option value'), display_name: z.string().optional() }).strict())
      .min(1),
    display_name: z.string().optional(),
    description: z.string().optional(),
  })
  .strict()
  .superRefine((attribute, ctx) => {
    const repeated = repeatedValues(attribute.options.map((o) => o.value));
    if (repeated.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `must not repeat values (repeated: ${repeated.join(', ')})`,
      });
  });

const NerLabelBaseSchema = z.object({
  name: NonEmpty('label name'),
  display_name: z.string().optional(),
  description: z.string().optional(),
  attributes: z.array(NerAttributeSchema).optional(),
});
export interface NerLabel extends z.infer<typeof NerLabelBaseSchema> {
  children?: NerLabel[];
}
export const NerLabelSchema: z.ZodType<NerLabel, z.ZodTypeDef, unknown> = NerLabelBaseSchema.extend({
  children: extendApi(
    lazySchema(() => z.array(NerLabelSchema)),
    {
      type: 'array',
      items: {
        type: 'object',
        description: 'A label of the same shape: name, display_name, description, children, attributes',
      },
    },
  ).optional(),
}).strict();

export const NerRelationshipSchema = z
  .object({
    name: NonEmpty('relationship name').optional(),
    display_name: z.string().optional(),
    is_directed: z.boolean().optional(),
    source_label: NonEmpty('label name'),
    target_label: NonEmpty('label name'),
  })
  .strict();
export type NerRelationship = z.infer<typeof NerRelationshipSchema>;

const NerAnnotationSchema = z
  .object({
    id: NonEmpty('id'),
    start: z.number().int().nonnegative(),
    end: z.number().int().nonnegative(),
    text: z.string(),
    label: z.string(),
  })
  .strict();
const NerResponseRelationshipSchema = z
  .object({ id: NonEmpty('id'), source_ref: z.string(), target_ref: z.string(), name: z.string().optional() })
  .strict();
export const NerResponseSchema = z
  .object({
    annotations: z.array(NerAnnotationSchema),
    relationships: z.array(NerResponseRelationshipSchema).optional(),
  })
  .strict();
export type NerResponse = z.infer<typeof NerResponseSchema>;

type Path = (string | number)[];

/** Every label of the tree with its path, parents before children. */
export function locateLabels(labels: readonly NerLabel[], base: Path = ['labels']): { label: NerLabel; path: Path }[] {
  return labels.flatMap((label, index) => {
    const path = [...base, index];
    return [{ label, path }, ...locateLabels(label.children ?? [], [...path, 'children'])];
  });
}

/** A label with children is navigation only: spans carry leaves. */
export const isLeafLabel = (label: NerLabel) => !label.children || label.children.length === 0;

/** Names a relationship end accepts: the label itself and, since children also match, all below it. */
export function namesUnder(labels: readonly NerLabel[], name: string): Set<string> {
  const found = locateLabels(labels).find(({ label }) => label.name === name)?.label;
  return new Set(found ? locateLabels([found]).map(({ label }) => label.name) : []);
}

/** The text spans refer to: with merge_newlines the newline characters are removed first. */
export const effectiveText = (params: { text: string; merge_newlines?: boolean }) =>
  params.merge_newlines ? params.text.replace(/[\r\n]/g, '') : params.text;

/** Whether a relationship definition admits a source and target label (either way round when undirected). */
export function relationshipFits(
  labels: readonly NerLabel[],
  def: NerRelationship,
  source: string,
  target: string,
): boolean {
  const sources = namesUnder(labels, def.source_label);
  const targets = namesUnder(labels, def.target_label);
  if (sources.has(source) && targets.has(target)) return true;
  // is_directed unset (and every unnamed relationship) counts as undirected.
  return def.is_directed !== true && sources.has(target) && targets.has(source);
}

/** Creation rules over labels and relationships. */
export function checkNerDefinitions(
  labels: readonly NerLabel[],
  relationships: readonly NerRelationship[] | undefined,
): FitIssue[] {
  const issues: FitIssue[] = [];
  const seen = new Map<string, Path>();
  for (const { label, path } of locateLabels(labels)) {
    const first = seen.get(label.name);
    if (first)
      issues.push({
        path: [...path, 'name'],
        message: `must be unique across all labels, children included ("${label.name}" is repeated)`,
      });
    else seen.set(label.name, path);
  }
  const named = relationships?.[0]?.name !== undefined;
  const names = new Set<string>();
  relationships?.forEach((def, index) => {
    const path = ['relationships', index];
    if ((def.name !== undefined) !== named)
      issues.push({
        path: [...path, 'name'],
        message: 'must be given for all relationships or for none (relationships are all named or all unnamed)',
      });
    else if (named && def.display_name === undefined)
      issues.push({ path: [...path, 'display_name'], message: 'is required for a named relationship' });
    else if (!named) {
      for (const key of ['display_name', 'is_directed'] as const) {
        if (def[key] !== undefined)
          issues.push({ path: [...path, key], message: 'is not allowed for an unnamed relationship' });
      }
    }
    if (def.name !== undefined && names.has(def.name))
      issues.push({ path: [...path, 'name'], message: `must be unique ("${def.name}" is repeated)` });
    if (def.name !== undefined) names.add(def.name);
    for (const key of ['source_label', 'target_label'] as const) {
      if (!seen.has(def[key]))
        issues.push({ path: [...path, key], message: `names label "${def[key]}", which is not a label of the task` });
    }
  });
  return issues;
}
