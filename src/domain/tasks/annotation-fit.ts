import { formatPath } from '../../errors/zod-messages.js';
import { own } from '../common/own.js';
import type { AnnotationAttributes } from './attributes.js';
import { attributeChoices } from './attributes.js';
import { type Geometries, type GeometryKind, geometryLeafLabels } from './geometries.js';
import type { FitIssue } from './report.js';

export type { FitIssue } from './report.js';

/** The message of a 400 for rule violations found outside zod: same style as schema errors. */
export function describeFitIssues(issues: FitIssue[], lead = ''): string {
  return (
    lead +
    issues
      .slice(0, 5)
      .map((issue) => `"${formatPath(issue.path)}" ${issue.message}`)
      .join('; ')
  );
}

/** Which geometry settings an annotation of a given `type` may come from. */
const KINDS_FOR_TYPE: Record<string, GeometryKind[]> = {
  box: ['box'],
  // Lines and ellipses are shown with type polygon in responses.
  polygon: ['polygon', 'line', 'ellipse'],
  line: ['line'],
  ellipse: ['ellipse'],
  point: ['point'],
  cuboid: ['cuboid'],
};

interface AnnotationLike {
  type: string;
  label: string;
  attributes?: Record<string, unknown>;
}

/**
 * Checks that annotations (a response, hypothesis or base annotations) fit what the task asked for:
 * a requested geometry, one of its leaf labels, and only defined attributes with offered values.
 */
export function checkAnnotationsFit(
  annotations: readonly AnnotationLike[],
  geometries: Geometries,
  attributes: AnnotationAttributes | undefined,
  basePath: (string | number)[],
): FitIssue[] {
  const issues: FitIssue[] = [];
  // The labels of each annotation type are found once, not per annotation: thousands of annotations
  // against a thousand labels must cost their number, not their product.
  const byType = new Map<string, { kinds: GeometryKind[]; labels: Set<string>; text: string }>();
  const labelsFor = (type: string) => {
    let entry = byType.get(type);
    if (!entry) {
      const kinds = (own(KINDS_FOR_TYPE, type) ?? []).filter((kind) => geometries[kind] !== undefined);
      const labels = kinds.flatMap((kind) => geometryLeafLabels(geometries, kind));
      entry = { kinds, labels: new Set(labels), text: labels.join(', ') };
      byType.set(type, entry);
    }
    return entry;
  };
  annotations.forEach((annotation, index) => {
    const path = [...basePath, index];
    const { kinds, labels, text } = labelsFor(annotation.type);
    if (kinds.length === 0) {
      issues.push({ path: [...path, 'type'], message: `is "${annotation.type}", a geometry the task did not ask for` });
      return;
    }
    if (!labels.has(annotation.label)) {
      issues.push({
        path: [...path, 'label'],
        message: `is "${annotation.label}", not one of the task's ${kinds.join('/')} labels (${text})`,
      });
    }
    issues.push(...checkAttributeValues(annotation.attributes, attributes, [...path, 'attributes']));
  });
  return issues;
}

/**
 * An attribute's choices as a set, found once per attribute definition (not once per annotation
 * that uses it): the definitions are the task's params, so the cache lives as long as they do.
 */
const choiceCache = new WeakMap<object, { set: Set<string>; text: string } | undefined>();
function offeredChoices(attr: AnnotationAttributes[string]): { set: Set<string>; text: string } | undefined {
  if (!choiceCache.has(attr)) {
    const choices = attributeChoices(attr);
    choiceCache.set(attr, choices && { set: new Set(choices), text: choices.join(', ') });
  }
  return choiceCache.get(attr);
}

export function checkAttributeValues(
  values: Record<string, unknown> | undefined,
  attributes: AnnotationAttributes | undefined,
  path: (string | number)[],
): FitIssue[] {
  const issues: FitIssue[] = [];
  for (const [name, value] of Object.entries(values ?? {})) {
    const attr = own(attributes, name);
    if (!attr) {
      issues.push({ path: [...path, name], message: 'is not an attribute defined in annotation_attributes' });
      continue;
    }
    const choices = offeredChoices(attr);
    const given = Array.isArray(value) ? value : [value];
    const unknown = choices ? given.filter((v) => !choices.set.has(String(v))) : [];
    if (unknown.length > 0) {
      issues.push({
        path: [...path, name],
        message:
          `has value(s) ${unknown.map((v) => JSON.stringify(v)).join(', ')}, ` +
          `not among its choices (${choices?.text})`,
      });
    }
  }
  return issues;
}

/** A completed image-shape response (`{annotations: [...]}`) checked against the task's geometries and attributes. */
export function checkResponseAnnotationsFit(
  response: { annotations: readonly AnnotationLike[] },
  params: { geometries: Geometries; annotation_attributes?: AnnotationAttributes },
): FitIssue[] {
  return checkAnnotationsFit(response.annotations, params.geometries, params.annotation_attributes, [
    'response',
    'annotations',
  ]);
}
