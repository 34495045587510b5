import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import type { LabelDescription } from '../common/labels.js';
import { own } from '../common/own.js';
import { AttachmentUrlSchema } from '../common/values.js';
import { checkAttributeValues, type FitIssue } from './annotation-fit.js';
import type { AnnotationAttributes } from './attributes.js';

/**
 * The segmentannotation response, after the real service's format: `labelMapping` gives each leaf
 * label its color and index (an instance label one entry per instance), `annotations` holds URLs of
 * PNG images: the combined image (colors), indexedImage (label indexes, 0 = unlabeled), optional
 * extendedIndexedImage, one mask per label (per instance for instance labels) and the unlabeled mask.
 */

export interface SegmentationLeaf {
  name: string;
  /** Segmented per instance: the leaf or one of its parents has instance_label true. */
  instance: boolean;
}

export function segmentationLeaves(
  labels: readonly LabelDescription[] | undefined,
  instanceLabels: readonly LabelDescription[] = [],
): SegmentationLeaf[] {
  const out: SegmentationLeaf[] = [];
  const walk = (list: readonly LabelDescription[], inherited: boolean) => {
    for (const entry of list) {
      if (typeof entry === 'string') out.push({ name: entry, instance: inherited });
      else if (entry.subchoices && entry.subchoices.length > 0)
        walk(entry.subchoices, inherited || Boolean(entry.instance_label));
      else out.push({ name: entry.choice, instance: inherited || Boolean(entry.instance_label) });
    }
  };
  walk(labels ?? [], false);
  walk(instanceLabels, true);
  return out;
}

const ResultUrlSchema = AttachmentUrlSchema;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

const LabelMappingEntrySchema = z
  .object({
    color: extendApi(
      z.string().refine((v) => HEX_COLOR.test(v), 'must be a hex color such as #ff0000'),
      { pattern: HEX_COLOR.source },
    ),
    // 0 is the unlabeled value of indexedImage, so labels start at 1.
    index: z.number().int().min(1),
    /**
     * Answers to annotation_attributes, which are limited to instances; null when none were asked (as every
     * recorded entry has it: commaai/comma10k@f633ba6, scale/response/*.json).
     */
    attributes: z.record(z.unknown()).nullable().optional(),
    /** The pixels the label (or instance) covers, as recorded. */
    numPixels: z.number().int().min(0).optional(),
  })
  .strict();
type LabelMappingEntry = z.infer<typeof LabelMappingEntrySchema>;

export const SegmentationResponseSchema = z
  .object({
    labelMapping: extendApi(z.record(z.union([LabelMappingEntrySchema, z.array(LabelMappingEntrySchema)])), {
      description:
        'Leaf label to {color, index, attributes, numPixels}; an instance label maps to an array, one entry per ' +
        'instance (empty when the image has none)',
    }),
    annotations: z
      .object({
        unlabeled: ResultUrlSchema.nullable().optional(),
        labeled: extendApi(z.record(z.union([ResultUrlSchema, z.array(ResultUrlSchema)])), {
          description: 'Leaf label to its mask URL; an instance label maps to one mask URL per instance',
        }),
        combined: z
          .object({
            image: ResultUrlSchema,
            indexedImage: ResultUrlSchema,
            extendedIndexedImage: ResultUrlSchema.optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type SegmentationResponse = z.infer<typeof SegmentationResponseSchema>;

interface SegmentationParams {
  labels: LabelDescription[];
  instance_labels?: LabelDescription[];
  allow_unlabeled?: boolean;
  annotation_attributes?: AnnotationAttributes;
}

export function checkSegmentationResponse(params: SegmentationParams, response: SegmentationResponse): FitIssue[] {
  const issues = checkLabelMapping(params, response.labelMapping);
  issues.push(...checkMasks(response));
  return issues;
}

/**
 * The label a labelMapping key names. The real service also lists a label holding dots under its escaped
 * spelling (`etc\.\.\.` beside `etc...`, the same entry: commaai/comma10k@f633ba6, scale/response/*.json, the
 * way a document store keeps dotted keys); a recorded response replays with both, and both name one label.
 */
const plainLabel = (key: string): string => key.replaceAll('\\.', '.');

function checkLabelMapping(params: SegmentationParams, mapping: SegmentationResponse['labelMapping']): FitIssue[] {
  const leaves = new Map(
    segmentationLeaves(params.labels, params.instance_labels).map((leaf) => [leaf.name, leaf.instance]),
  );
  const indexes = new Map<number, string>();
  const issues: FitIssue[] = [];
  for (const [key, value] of Object.entries(mapping)) {
    const path = ['response', 'labelMapping', key];
    const label = plainLabel(key);
    const instance = leaves.get(label);
    if (instance === undefined) {
      issues.push({ path, message: `is not one of the task's leaf labels (${[...leaves.keys()].join(', ')})` });
      continue;
    }
    if (instance !== Array.isArray(value)) {
      issues.push({
        path,
        message: instance
          ? 'must be an array (one entry per instance): it is an instance label'
          : 'must be a single {color, index}: it is not an instance label',
      });
      continue;
    }
    const entries: LabelMappingEntry[] = Array.isArray(value) ? value : [value];
    entries.forEach((entry, i) => {
      const at = Array.isArray(value) ? [...path, i] : path;
      const holder = indexes.get(entry.index);
      // The escaped spelling repeats its label's entry, index included.
      if (holder !== undefined && holder !== label)
        issues.push({
          path: [...at, 'index'],
          message: `repeats index ${entry.index}, already used by "${holder}" (indexes are unique)`,
        });
      indexes.set(entry.index, label);
      if (entry.attributes && Object.keys(entry.attributes).length > 0 && !instance)
        issues.push({
          path: [...at, 'attributes'],
          message: 'are only allowed on instances (annotation_attributes are limited to instance labels)',
        });
      else
        issues.push(
          ...checkAttributeValues(entry.attributes ?? undefined, params.annotation_attributes, [...at, 'attributes']),
        );
    });
  }
  return issues;
}

/** Every label in labelMapping has its mask (one per instance), and every mask a label in labelMapping. */
function checkMasks(response: SegmentationResponse): FitIssue[] {
  const issues: FitIssue[] = [];
  const { labelMapping } = response;
  const { labeled } = response.annotations;
  for (const [label, masks] of Object.entries(labeled)) {
    const path = ['response', 'annotations', 'labeled', label];
    const entry = own(labelMapping, label);
    if (entry === undefined) issues.push({ path, message: 'has no entry in labelMapping' });
    else if (Array.isArray(entry) !== Array.isArray(masks) || (Array.isArray(entry) && entry.length !== masks.length)) {
      issues.push({
        path,
        message: `must match labelMapping.${label}: one mask URL per instance for an instance label, else a single URL`,
      });
    }
  }
  for (const label of Object.keys(labelMapping)) {
    // An escaped spelling shares its label's mask.
    if (!Object.hasOwn(labeled, label) && !Object.hasOwn(labeled, plainLabel(label)))
      issues.push({
        path: ['response', 'annotations', 'labeled'],
        message: `lacks the mask of "${label}" (every label in labelMapping has one)`,
      });
  }
  return issues;
}
