import {
  effectiveText,
  isLeafLabel,
  locateLabels,
  type NerLabel,
  type NerResponse,
  namesUnder,
} from '../domain/tasks/ner.js';
import type { NerParams } from '../domain/tasks/ner-response.js';
import type { Rng } from '../runtime/random.js';

/** At most this many spans: enough to show labels and a relationship, few enough to read. */
const MAX_SPANS = 4;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * Spans on whole words of the (newline-merged) text, in text order and never overlapping, each with
 * a leaf label; when relationships are defined, the first two spans get labels that fit the first
 * definition and are joined by it.
 */
export function synthesizeNerResponse(params: NerParams, rng: Rng): NerResponse {
  const text = effectiveText(params);
  const words = pickWords([...text.matchAll(WORD)], rng);
  const leaves = locateLabels(params.labels)
    .map(({ label }) => label)
    .filter(isLeafLabel)
    .map((label) => label.name);
  const def = params.relationships?.[0];
  const wanted = def ? [firstLeaf(params.labels, def.source_label), firstLeaf(params.labels, def.target_label)] : [];
  const annotations = words.map((word, i) => ({
    id: rng.uuid(),
    start: word.index ?? 0,
    end: (word.index ?? 0) + word[0].length,
    text: word[0],
    // A task has at least one label, so some leaf; the first label's name would do otherwise.
    label: wanted[i] ?? rng.pick(leaves) ?? params.labels[0]?.name ?? '',
  }));
  const [source, target] = annotations;
  if (!def || !source || !target) return { annotations, relationships: [] };
  const relationship = { id: rng.uuid(), source_ref: source.id, target_ref: target.id, name: def.name ?? '' };
  return { annotations, relationships: [relationship] };
}

/** Up to MAX_SPANS distinct words, kept in text order; capitalized ones first, as entities mostly are. */
function pickWords(all: RegExpMatchArray[], rng: Rng): RegExpMatchArray[] {
  const capitalized = all.filter((word) => /^\p{Lu}/u.test(word[0]));
  const words = capitalized.length >= 2 ? capitalized : all;
  const chosen = new Set<number>();
  while (chosen.size < Math.min(MAX_SPANS, words.length)) chosen.add(rng.int(0, words.length - 1));
  return [...chosen]
    .sort((a, b) => a - b)
    .flatMap((i) => {
      const word = words[i];
      return word ? [word] : [];
    });
}

/** A leaf at or below the named label: the label a span needs to stand for it. */
function firstLeaf(labels: readonly NerLabel[], name: string): string {
  const under = namesUnder(labels, name);
  const leaf = locateLabels(labels).find(({ label }) => under.has(label.name) && isLeafLabel(label));
  return leaf?.label.name ?? name;
}
