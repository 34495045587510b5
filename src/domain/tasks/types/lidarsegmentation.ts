import { z } from 'zod';
import { synthesizeLidarSegmentation } from '../../../synth/lidar-segmentation.js';
import { leafLabels } from '../../common/labels.js';
import type { FitIssue } from '../annotation-fit.js';
import { CommonCreateShape } from '../common-params.js';
import { instanceLeafLabels, LidarSequenceShape, optionalPriorLidarTask } from '../lidar-common.js';
import type { TaskTypeDefinition } from '../type-definition.js';

/**
 * Each lidar point gets a class. Standalone, or as a follow-up of a finished lidarannotation task
 * named by `lidar_task` (the interface's dependent creation, available here as a direct parameter).
 */
export const LidarSegmentationCreateSchema = z
  .object({
    ...CommonCreateShape,
    ...LidarSequenceShape,
    lidar_task: z.string().min(1).optional(),
  })
  .strict();
export type LidarSegmentationCreate = z.infer<typeof LidarSegmentationCreateSchema>;

const PointClassesSchema = z.array(z.number().int().min(0));

/**
 * One frame's classification: `labels[i]` is the class of the frame's i-th point, an index into
 * the response's `label_mapping`; `instance_ids[i]` (optional) separates objects of instance labels,
 * 0 meaning "no instance".
 */
export const LidarSegmentationFrameSchema = z
  .object({
    frame_index: z.number().int().min(1),
    labels: PointClassesSchema,
    instance_ids: PointClassesSchema.optional(),
  })
  .strict()
  .superRefine((frame, ctx) => {
    if (frame.instance_ids && frame.instance_ids.length !== frame.labels.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['instance_ids'],
        message: `must have one entry per point (${frame.labels.length}, as labels)`,
      });
    }
  });

export const LidarSegmentationResponseSchema = z
  .object({
    /** Class index -> leaf label name. */
    label_mapping: z.array(z.string().min(1)).min(1),
    annotations: z.array(LidarSegmentationFrameSchema),
  })
  .strict();
export type LidarSegmentationResponse = z.infer<typeof LidarSegmentationResponseSchema>;

function checkMapping(params: LidarSegmentationCreate, mapping: string[]): FitIssue[] {
  const leaves = leafLabels(params.labels);
  // Sets, not includes/indexOf per entry: a long mapping must cost its length, not its square.
  const known = new Set(leaves);
  const seen = new Set<string>();
  const issues: FitIssue[] = [];
  mapping.forEach((name, index) => {
    const path = ['response', 'label_mapping', index];
    if (!known.has(name))
      issues.push({ path, message: `is "${name}", not one of the task's leaf labels (${leaves.join(', ')})` });
    else if (seen.has(name)) issues.push({ path, message: `repeats label "${name}"` });
    seen.add(name);
  });
  return issues;
}

function checkFrame(
  frame: LidarSegmentationResponse['annotations'][number],
  mapping: string[],
  instanceLabels: string[],
  path: (string | number)[],
): FitIssue[] {
  const issues: FitIssue[] = [];
  const badClass = frame.labels.findIndex((value) => value >= mapping.length);
  if (badClass >= 0) {
    issues.push({
      path: [...path, 'labels', badClass],
      message: `is ${frame.labels[badClass]}, not an index of label_mapping (0 to ${mapping.length - 1})`,
    });
  }
  const badInstance = (frame.instance_ids ?? []).findIndex(
    (id, i) => id !== 0 && frame.labels[i] < mapping.length && !instanceLabels.includes(mapping[frame.labels[i]]),
  );
  if (badInstance >= 0) {
    issues.push({
      path: [...path, 'instance_ids', badInstance],
      message: `must be 0: the point's label "${mapping[frame.labels[badInstance]]}" is not an instance label`,
    });
  }
  return issues;
}

export function checkLidarSegmentationResponse(
  params: LidarSegmentationCreate,
  response: LidarSegmentationResponse,
): FitIssue[] {
  const frameCount = params.attachments.length;
  const instanceLabels = instanceLeafLabels(params.labels);
  const issues = checkMapping(params, response.label_mapping);
  const seen = new Set<number>();
  response.annotations.forEach((frame, index) => {
    const path = ['response', 'annotations', index];
    if (frame.frame_index > frameCount)
      issues.push({
        path: [...path, 'frame_index'],
        message: `is ${frame.frame_index}, beyond the task's ${frameCount} frame(s)`,
      });
    else if (seen.has(frame.frame_index))
      issues.push({ path: [...path, 'frame_index'], message: `repeats frame ${frame.frame_index}` });
    seen.add(frame.frame_index);
    issues.push(...checkFrame(frame, response.label_mapping, instanceLabels, path));
  });
  return issues;
}

export const lidarsegmentation: TaskTypeDefinition = {
  type: 'lidarsegmentation',
  summary: 'Create a lidar segmentation task (a class for every point of every frame)',
  createSchema: LidarSegmentationCreateSchema,
  responseSchema: LidarSegmentationResponseSchema,
  schemaName: 'LidarSegmentation',
  checkCreate: optionalPriorLidarTask,
  checkResponse: (task, response) =>
    checkLidarSegmentationResponse(task.params as LidarSegmentationCreate, response as LidarSegmentationResponse),
  synthesize: (task, rng) => synthesizeLidarSegmentation(task.params as LidarSegmentationCreate, rng),
};
