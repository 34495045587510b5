import { formatPath } from '../zod-messages.js';
import type { AnnotationAttributes } from './attributes.js';
import { attributeChoices } from './attributes.js';
import { geometryLeafLabels, type Geometries, type GeometryKind } from './geometries.js';

export interface FitIssue {
  path: (string | number)[];
  message: string;
}

/** The message of a 400 for rule violations found outside zod: same style as schema errors. */
export function describeFitIssues(issues: FitIssue[], lead = 'Parameter is invalid, reason: '): string {
  return lead + issues.slice(0, 5).map((issue) => `"${formatPath(issue.path)}" ${issue.message}`).join('; ');
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
  annotations.forEach((annotation, index) => {
    const path = [...basePath, index];
    const kinds = (KINDS_FOR_TYPE[annotation.type] ?? []).filter((kind) => geometries[kind] !== undefined);
    if (kinds.length === 0) {
      issues.push({ path: [...path, 'type'], message: `is "${annotation.type}", a geometry the task did not ask for` });
      return;
    }
    const labels = kinds.flatMap((kind) => geometryLeafLabels(geometries, kind));
    if (!labels.includes(annotation.label)) {
      issues.push({
        path: [...path, 'label'],
        message: `is "${annotation.label}", not one of the task's ${kinds.join('/')} labels (${labels.join(', ')})`,
      });
    }
    issues.push(...checkAttributeValues(annotation.attributes, attributes, [...path, 'attributes']));
  });
  return issues;
}

export function checkAttributeValues(
  values: Record<string, unknown> | undefined,
  attributes: AnnotationAttributes | undefined,
  path: (string | number)[],
): FitIssue[] {
  const issues: FitIssue[] = [];
  for (const [name, value] of Object.entries(values ?? {})) {
    const attr = attributes?.[name];
    if (!attr) {
      issues.push({ path: [...path, name], message: 'is not an attribute defined in annotation_attributes' });
      continue;
    }
    const choices = attributeChoices(attr);
    const given = Array.isArray(value) ? value : [value];
    const unknown = choices ? given.filter((v) => !choices.includes(String(v))) : [];
    if (unknown.length > 0) {
      issues.push({ path: [...path, name], message: `has value(s) ${unknown.map((v) => JSON.stringify(v)).join(', ')}, not among its choices (${choices?.join(', ')})` });
    }
  }
  return issues;
}
