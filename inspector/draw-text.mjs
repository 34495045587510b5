// A named entity recognition response over its text: the text cut where any span starts or ends, each piece with
// the spans that cover it (spans may overlap), and the relationships between spans. Pure: task.mjs builds the
// marks as elements; a label's colour is a class (`mark-0` ...), as the page's CSP allows no inline style.
import { labelColours } from './draw.mjs';

/** Classes the style sheet colours, in the order labels first appear. */
const MARK_CLASSES = 9;

const isSpan = (text) => (span) =>
  Number.isInteger(span?.start) &&
  Number.isInteger(span?.end) &&
  span.start >= 0 &&
  span.start < span.end &&
  span.end <= text.length;

/**
 * `text` (the task's, as its spans count it) cut into pieces, each `{ text, spans }` with the spans over it (their
 * id, label and colour class); a span that does not fit the text is counted in `skipped`, not drawn.
 */
export function markSpans(text, response) {
  const all = Array.isArray(response?.annotations) ? response.annotations : [];
  const spans = all.filter(isSpan(text));
  const colours = labelColours();
  const classes = new Map();
  const classOf = (label) => {
    if (!classes.has(label)) classes.set(label, `mark-${classes.size % MARK_CLASSES}`);
    return classes.get(label);
  };
  for (const span of spans) {
    colours.colour(span.label);
    colours.count(span.label);
  }
  const cuts = [...new Set([0, text.length, ...spans.flatMap((span) => [span.start, span.end])])].sort((a, b) => a - b);
  const pieces = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const [from, to] = [cuts[i], cuts[i + 1]];
    const over = spans.filter((span) => span.start <= from && span.end >= to);
    pieces.push({
      text: text.slice(from, to),
      spans: over.map((span) => ({ id: span.id, label: span.label, className: classOf(span.label) })),
    });
  }
  const byId = new Map(spans.map((span) => [span.id, span]));
  const relationships = (Array.isArray(response?.relationships) ? response.relationships : []).map((relationship) => ({
    name: relationship?.name ?? '',
    source: byId.get(relationship?.source_ref)?.text ?? relationship?.source_ref,
    target: byId.get(relationship?.target_ref)?.text ?? relationship?.target_ref,
  }));
  const legend = colours.legend().map((entry) => ({ ...entry, className: classOf(entry.label) }));
  return { pieces, legend, relationships, skipped: all.length - spans.length };
}
