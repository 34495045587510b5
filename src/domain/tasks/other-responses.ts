import { z } from 'zod';
import { type LabelDescription, leafLabels } from '../common/labels.js';
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

export function otherResponseSchema(kind: OtherResponseKind): z.AnyZodObject {
  switch (kind) {
    case 'categorization':
      return z
        .object({ category: z.union([z.string(), z.array(z.string()).min(1)], { errorMap: categoryError }) })
        .passthrough();
    case 'comparison':
      // The legacy comparison answers with the chosen choice and/or an answer per field.
      return z.object({ choice: z.string().optional(), fields: z.record(z.unknown()).optional() }).passthrough();
    case 'transcript':
      return z.object({ transcript: z.string() }).passthrough();
    case 'annotations':
      return z.object({ annotations: z.array(z.object({ label: z.string() }).passthrough()) }).passthrough();
    case 'fields':
      return z.object({ fields: z.record(z.unknown()) }).passthrough();
    case 'placeholder':
      return z.object({ result: z.string().optional() }).passthrough();
  }
}

/** What can be checked without a specified shape: labels the task offered, answers for its fields. */
export function checkOtherResponse(
  kind: OtherResponseKind,
  params: Record<string, unknown>,
  response: Record<string, unknown>,
): FitIssue[] {
  switch (kind) {
    case 'categorization': {
      const offered = leafLabels(params.categories as LabelDescription[]);
      const given = [response.category].flat() as string[];
      const known = new Set(offered);
      const unknown = given.filter((c) => !known.has(c));
      return unknown.length > 0
        ? [
            {
              path: ['response', 'category'],
              message: `has ${unknown.map((c) => `"${c}"`).join(', ')}, not among the task's categories (${offered.join(', ')})`,
            },
          ]
        : [];
    }
    case 'annotations': {
      const offered = leafLabels(params.objects_to_annotate as LabelDescription[]);
      // A set and one joined list: thousands of annotations must not cost thousands of label scans.
      const known = new Set(offered);
      const text = offered.join(', ');
      return (response.annotations as { label: string }[]).flatMap((a, index) =>
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
      const known = Object.keys(params.fields as Record<string, unknown>);
      return Object.keys(response.fields as Record<string, unknown>)
        .filter((key) => !known.includes(key))
        .map((key) => ({
          path: ['response', 'fields', key],
          message: `is not one of the task's fields (${known.join(', ')})`,
        }));
    }
    case 'comparison': {
      const issues: FitIssue[] = [];
      const choices = params.choices === undefined ? undefined : leafLabels(params.choices as LabelDescription[]);
      if (response.choice !== undefined && choices && !choices.includes(response.choice as string)) {
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
