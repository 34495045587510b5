import { leafLabels } from '../domain/common/labels.js';
import type { GeometryKind } from '../domain/tasks/geometries.js';
import type { OtherParams, OtherResponse, OtherResponseKind } from '../domain/tasks/other-responses.js';
import { synthesizeImageResponse } from './image.js';
import type { Rng } from './random.js';

/**
 * Placeholder responses for the task types without a specified response: the first category, one
 * shape per label (the legacy annotation types, in the image annotation shape), an answer per
 * field, or `{result: 'synthesized'}`.
 */
export function synthesizeOtherResponse(
  kind: OtherResponseKind,
  params: OtherParams,
  rng: Rng,
  geometry?: GeometryKind,
): OtherResponse {
  switch (kind) {
    case 'categorization':
      return { category: leafLabels(params.categories)[0] };
    case 'comparison': {
      const choices = leafLabels(params.choices);
      const fields = params.fields;
      return {
        ...(choices.length > 0 && { choice: rng.pick(choices) }),
        ...(fields && { fields: answerEachField(fields) }),
      };
    }
    case 'transcript':
      return { transcript: 'synthesized transcript' };
    case 'annotations': {
      const objects = params.objects_to_annotate ?? [];
      return synthesizeImageResponse({ geometries: { [geometry ?? 'box']: { objects_to_annotate: objects } } }, rng);
    }
    case 'fields':
      return { fields: answerEachField(params.fields ?? {}) };
    case 'placeholder':
      return { result: 'synthesized' };
  }
}

const answerEachField = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, `synthesized ${key}`]));
