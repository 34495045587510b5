import type { FitIssue } from './annotation-fit.js';
import {
  effectiveText,
  isLeafLabel,
  locateLabels,
  type NerLabel,
  type NerRelationship,
  type NerResponse,
  relationshipFits,
} from './ner.js';

/** Checks a named entity recognition response against the task's text, labels and relationships. */

export interface NerParams {
  text: string;
  labels: NerLabel[];
  relationships?: NerRelationship[];
  merge_newlines?: boolean;
  allow_overlapping_annotations?: boolean;
}

type Annotation = NerResponse['annotations'][number];

export function checkNerResponse(params: NerParams, response: NerResponse): FitIssue[] {
  const text = effectiveText(params);
  const labels = new Map(locateLabels(params.labels).map(({ label }) => [label.name, label]));
  const issues: FitIssue[] = [];
  const ids = new Set<string>();
  response.annotations.forEach((annotation, index) => {
    const path = ['response', 'annotations', index];
    if (ids.has(annotation.id))
      issues.push({ path: [...path, 'id'], message: `must be unique ("${annotation.id}" is repeated)` });
    ids.add(annotation.id);
    issues.push(...checkSpan(annotation, text, path));
    const label = labels.get(annotation.label);
    if (!label) issues.push({ path: [...path, 'label'], message: `is "${annotation.label}", not a label of the task` });
    else if (!isLeafLabel(label))
      issues.push({
        path: [...path, 'label'],
        message: `is "${annotation.label}", a label with children, which is not used to label spans`,
      });
  });
  // Unset means overlaps are allowed: the interface only says what false forbids.
  if (params.allow_overlapping_annotations === false) issues.push(...overlaps(response.annotations));
  issues.push(...checkRelationships(params, response));
  return issues;
}

function checkSpan(annotation: Annotation, text: string, path: (string | number)[]): FitIssue[] {
  if (annotation.end > text.length)
    return [{ path: [...path, 'end'], message: `must be at most the text length (${text.length})` }];
  if (annotation.start >= annotation.end)
    return [{ path: [...path, 'start'], message: `must be less than end (${annotation.end})` }];
  const covered = text.slice(annotation.start, annotation.end);
  if (covered !== annotation.text)
    return [
      { path: [...path, 'text'], message: `must equal the text between start and end (${JSON.stringify(covered)})` },
    ];
  return [];
}

function overlaps(annotations: readonly Annotation[]): FitIssue[] {
  const order = annotations.map((a, index) => ({ a, index })).sort((x, y) => x.a.start - y.a.start);
  const issues: FitIssue[] = [];
  order.forEach((current, i) => {
    const before = order.slice(0, i).find(({ a }) => a.end > current.a.start);
    if (before) {
      issues.push({
        path: ['response', 'annotations', current.index],
        message: `overlaps annotation "${before.a.id}" (allow_overlapping_annotations is false)`,
      });
    }
  });
  return issues;
}

function checkRelationships(params: NerParams, response: NerResponse): FitIssue[] {
  const defs = params.relationships ?? [];
  const named = defs[0]?.name !== undefined;
  const byId = new Map(response.annotations.map((a) => [a.id, a]));
  const issues: FitIssue[] = [];
  const ids = new Set<string>();
  for (const [index, rel] of (response.relationships ?? []).entries()) {
    const path = ['response', 'relationships', index];
    if (ids.has(rel.id)) issues.push({ path: [...path, 'id'], message: `must be unique ("${rel.id}" is repeated)` });
    ids.add(rel.id);
    if (defs.length === 0) {
      issues.push({ path, message: 'is not allowed: the task defines no relationships' });
      continue;
    }
    const source = byId.get(rel.source_ref);
    const target = byId.get(rel.target_ref);
    if (!source)
      issues.push({ path: [...path, 'source_ref'], message: `is "${rel.source_ref}", not the id of an annotation` });
    if (!target)
      issues.push({ path: [...path, 'target_ref'], message: `is "${rel.target_ref}", not the id of an annotation` });
    const name = rel.name ?? '';
    const candidates = named ? defs.filter((d) => d.name === name) : defs;
    if (!named && name !== '')
      issues.push({ path: [...path, 'name'], message: "must be blank: the task's relationships are unnamed" });
    else if (candidates.length === 0)
      issues.push({
        path: [...path, 'name'],
        message: `is "${name}", not a relationship of the task (${defs.map((d) => d.name).join(', ')})`,
      });
    else if (
      source &&
      target &&
      !candidates.some((d) => relationshipFits(params.labels, d, source.label, target.label))
    ) {
      issues.push({
        path,
        message:
          `does not fit a defined relationship: ` +
          `no ${named ? `"${name}" ` : ''}relationship joins "${source.label}" to "${target.label}"`,
      });
    }
  }
  return issues;
}
