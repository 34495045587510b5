import { leafLabels } from '../domain/common/labels.js';
import type { GeometryKind } from '../domain/tasks/geometries.js';
import type { OtherParams, OtherResponse, OtherResponseKind } from '../domain/tasks/other-responses.js';
import type { Rng } from '../runtime/random.js';
import { synthesizeImageResponse } from './image.js';

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
      return synthesizeCategory(params);
    case 'comparison': {
      const choices = leafLabels(params.choices);
      const fields = params.fields;
      return {
        ...(choices.length > 0 && { choice: rng.pick(choices) }),
        ...(fields && { fields: answerEachField(fields) }),
      };
    }
    case 'transcript':
      return synthesizeTranscript(TRANSCRIPT);
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

/**
 * The first category, a list of it when the task allows several; `category_id` the key `category_ids` gives it,
 * else null, as the real service answered (scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/task_find_valid.yml).
 */
function synthesizeCategory(params: OtherParams): OtherResponse {
  const category = leafLabels(params.categories)[0] ?? '';
  const id = Object.entries(params.category_ids ?? {}).find(([, name]) => name === category)?.[0] ?? null;
  if (params.allow_multiple === true) return { category: [category], category_id: id === null ? null : [id] };
  return { category, category_id: id };
}

const TRANSCRIPT = 'This is a synthesized transcript of the audio.';
const SECONDS_PER_WORD = 0.3;

/**
 * The transcript with its `duration` and word `alignment`, the shape of the docs' callback and the 2019 recording
 * (scaleapi/scaleapi-ruby@e6354d9, spec/cassettes/audio_transcription.yml): words back to back from 0.3 s.
 */
function synthesizeTranscript(transcript: string): OtherResponse {
  const words = transcript.split(/\s+/).filter((word) => word !== '');
  const at = (index: number) => Math.round((SECONDS_PER_WORD + index * SECONDS_PER_WORD) * 100) / 100;
  const alignment = words.map((word, index) => ({ word, start: at(index), end: at(index + 1), confidence: 0.9 }));
  // The audio runs a word's length past the last word.
  return { transcript, duration: at(words.length + 1), alignment };
}

const answerEachField = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(fields).map((key) => [key, `synthesized ${key}`]));
