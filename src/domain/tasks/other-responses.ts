import { type ZodType, type ZodTypeDef, z } from 'zod';
import { LabelListSchema, leafLabels } from '../common/labels.js';
import type { FitIssue } from './annotation-fit.js';

/**
 * Response shapes of the task types whose parameters the interface does not specify. Only the
 * keys the mock fills are typed; anything else a given response carries is kept (passthrough).
 * A fresh schema per type, so each gets its own OpenAPI component.
 */

const categoryError: z.ZodErrorMap = (_issue, ctx) => ({
  message: ctx.data === undefined ? 'is required' : 'must be a category name or an array of them',
});

export type OtherResponseKind =
  | 'categorization'
  | 'comparison'
  | 'transcript'
  | 'annotations'
  | 'fields'
  | 'placeholder';

/** One word of an audio transcript, where it is heard and how sure the aligner is (0.9 or 0.3 in the docs). */
const AlignedWordSchema = z
  .object({ word: z.string(), start: z.number().min(0), end: z.number().min(0), confidence: z.number().min(0).max(1) })
  .passthrough();
type AlignedWord = z.infer<typeof AlignedWordSchema>;

/** What checks and synthesis read from the params of these types; each type requires its own few. */
const OtherParamsSchema = z.object({
  categories: LabelListSchema.optional(),
  objects_to_annotate: LabelListSchema.optional(),
  choices: LabelListSchema.optional(),
  fields: z.record(z.unknown()).optional(),
  allow_multiple: z.boolean().optional(),
  /** Category id by category name's key: `{"123": "Blue Cross"}` (the 2018 docs). */
  category_ids: z.record(z.unknown()).optional(),
});
export type OtherParams = z.infer<typeof OtherParamsSchema>;

/** Only the params a kind reads are parsed: the others are stored as given, whatever their shape. */
export function otherParamsSchema(kind: OtherResponseKind): ZodType<OtherParams, ZodTypeDef, unknown> {
  switch (kind) {
    case 'categorization':
      return OtherParamsSchema.pick({ categories: true, allow_multiple: true, category_ids: true });
    case 'annotations':
      return OtherParamsSchema.pick({ objects_to_annotate: true });
    case 'fields':
      return OtherParamsSchema.pick({ fields: true });
    case 'comparison':
      return OtherParamsSchema.pick({ choices: true, fields: true });
    case 'transcript':
    case 'placeholder':
      return OtherParamsSchema.pick({});
  }
}

/** A response of these types: only the keys the mock fills are typed, the rest is kept as given. */
export interface OtherResponse {
  [key: string]: unknown;
  category?: string | string[];
  choice?: string;
  fields?: Record<string, unknown>;
  transcript?: string;
  duration?: number;
  alignment?: AlignedWord[];
  annotations?: { label: string }[];
  result?: string;
}

export function otherResponseSchema(kind: OtherResponseKind): ZodType<OtherResponse, ZodTypeDef, unknown> {
  switch (kind) {
    case 'categorization':
      return z
        .object({
          category: z.union([z.string(), z.array(z.string()).min(1)], { errorMap: categoryError }),
          // The real service answers null without category_ids (scaleapi/scaleapi-ruby@e6354d9, task_find_valid.yml).
          // Null inside the union's string branch: the document generator spells a nullable union wrongly.
          category_id: z.union([z.string().nullable(), z.array(z.string())]).optional(),
        })
        .passthrough();
    case 'comparison':
      // The legacy comparison answers with the chosen choice and/or an answer per field.
      return z.object({ choice: z.string().optional(), fields: z.record(z.unknown()).optional() }).passthrough();
    case 'transcript':
      return z
        .object({
          transcript: z.string(),
          /** Seconds of audio (the 2018 docs, the 2019 recording). */
          duration: z.number().min(0).optional(),
          alignment: z.array(AlignedWordSchema).optional(),
        })
        .passthrough();
    case 'annotations':
      return z.object({ annotations: z.array(z.object({ label: z.string() }).passthrough()) }).passthrough();
    case 'fields':
      return z.object({ fields: z.record(z.unknown()) }).passthrough();
    case 'placeholder':
      return z.object({ result: z.string().optional() }).passthrough();
  }
}

/** What can be checked without a specified shape: labels the task offered, answers for its fields. */
export function checkOtherResponse(kind: OtherResponseKind, params: OtherParams, response: OtherResponse): FitIssue[] {
  switch (kind) {
    case 'categorization': {
      const offered = leafLabels(params.categories);
      const given = [response.category ?? []].flat();
      const known = new Set(offered);
      const unknown = given.filter((c) => !known.has(c));
      return unknown.length > 0
        ? [
            {
              path: ['response', 'category'],
              message:
                `has ${unknown.map((c) => `"${c}"`).join(', ')}, ` +
                `not among the task's categories (${offered.join(', ')})`,
            },
          ]
        : [];
    }
    case 'annotations': {
      const offered = leafLabels(params.objects_to_annotate);
      // A set and one joined list: thousands of annotations must not cost thousands of label scans.
      const known = new Set(offered);
      const text = offered.join(', ');
      return (response.annotations ?? []).flatMap((a, index) =>
        known.has(a.label)
          ? []
          : [
              {
                path: ['response', 'annotations', index, 'label'],
                message: `is "${a.label}", not one of objects_to_annotate (${text})`,
              },
            ],
      );
    }
    case 'fields': {
      const known = Object.keys(params.fields ?? {});
      return Object.keys(response.fields ?? {})
        .filter((key) => !known.includes(key))
        .map((key) => ({
          path: ['response', 'fields', key],
          message: `is not one of the task's fields (${known.join(', ')})`,
        }));
    }
    case 'comparison': {
      const issues: FitIssue[] = [];
      const choices = params.choices === undefined ? undefined : leafLabels(params.choices);
      if (response.choice !== undefined && choices && !choices.includes(response.choice)) {
        issues.push({
          path: ['response', 'choice'],
          message: `is "${String(response.choice)}", not one of the task's choices (${choices.join(', ')})`,
        });
      }
      if (response.choice !== undefined && !choices)
        issues.push({ path: ['response', 'choice'], message: 'is given, but the task offers no choices' });
      return issues;
    }
    case 'transcript':
    case 'placeholder':
      return [];
  }
}
