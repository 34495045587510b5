import { z } from 'zod';
import { duplicateLabelNames, type LabelDescription, labelList } from '../common/labels.js';
import { AttachmentUrlSchema } from '../common/values.js';
import type { FitIssue } from './annotation-fit.js';
import type { Task } from './task.js';
import type { CreateContext } from './type-definition.js';

/** Creation pieces and rules shared by the lidar task types. */

const MAX_LIDAR_LABELS = 50;

/** Frame files (JSON or protobuf LidarFrame), in time order: frame i of a response is attachments[i - 1]. */
export const LidarAttachmentsSchema = z.array(AttachmentUrlSchema).min(1);

const LidarAttachmentTypeSchema = z.enum(['json', 'protobuf']);

/** At most 50 entries (the interface's limit), at least one, no name twice anywhere in the tree. */
const LidarLabelsSchema = labelList({ min: 1, max: MAX_LIDAR_LABELS }).superRefine((labels, ctx) => {
  const dupes = duplicateLabelNames(labels);
  if (dupes.length > 0)
    ctx.addIssue({ code: 'custom', message: `must not repeat labels (repeated: ${dupes.join(', ')})` });
});

export const LabelingSampleRateSchema = z.number().int().min(1);

/**
 * The shared lidar creation fields: attachments, attachment_type and labels are required on both cuboid and point
 * tasks.
 */
export const LidarSequenceShape = {
  attachments: LidarAttachmentsSchema,
  attachment_type: LidarAttachmentTypeSchema,
  labels: LidarLabelsSchema,
};

/**
 * The fully labeled frames (1-indexed) of a sequence of `frameCount` frames at `rate` k:
 * 1, k+1, 2k+1, ..., floor((n-1)/k)*k+1, and the n-th.
 */
export function labeledFrames(frameCount: number, rate = 1): number[] {
  if (frameCount < 1) return [];
  const k = Math.max(1, Math.floor(rate));
  const frames: number[] = [];
  for (let frame = 1; frame <= frameCount; frame += k) frames.push(frame);
  if (frames[frames.length - 1] !== frameCount) frames.push(frameCount);
  return frames;
}

/**
 * The frames a lidarlinking task adjusts: its own rate applied to the frames the original task
 * labeled (20 frames at rate 4 give 1, 5, 9, 13, 17, 20; a linking rate of 2 then 1, 9, 17, 20).
 */
export function linkingFrames(originalFrameCount: number, originalRate = 1, linkingRate = 1): number[] {
  const original = labeledFrames(originalFrameCount, originalRate);
  // Positions run 1..original.length, so each names a frame; the filter only satisfies the type.
  return labeledFrames(original.length, linkingRate)
    .map((position) => original[position - 1])
    .filter((frame) => frame !== undefined);
}

/** Leaf labels that are segmented per instance: instance_label on the leaf or on a parent choice. */
export function instanceLeafLabels(labels: readonly LabelDescription[] | undefined): string[] {
  const out: string[] = [];
  const walk = (list: readonly LabelDescription[], inherited: boolean) => {
    for (const entry of list) {
      if (typeof entry === 'string') {
        if (inherited) out.push(entry);
      } else if (entry.subchoices && entry.subchoices.length > 0) {
        walk(entry.subchoices, inherited || entry.instance_label === true);
      } else if (inherited || entry.instance_label === true) out.push(entry.choice);
    }
  };
  walk(labels ?? [], false);
  return out;
}

/**
 * A cross-task rule: `field` must name a completed task of one of `types` in the caller's tenant.
 * Returns the task when it qualifies, or the issue that says why not.
 */
export function findCompletedTask(
  taskId: string,
  types: readonly string[],
  context: CreateContext,
  field = 'lidar_task',
): { task?: Task; issues: FitIssue[] } {
  const wanted = `must name a completed ${types.join(' or ')} task of this account`;
  const task = context.findTask(taskId);
  if (!task) return { issues: [{ path: [field], message: `${wanted}; no task "${taskId}" exists` }] };
  if (!types.includes(task.type))
    return { issues: [{ path: [field], message: `${wanted}; task ${taskId} has type ${task.type}` }] };
  if (task.status !== 'completed')
    return { issues: [{ path: [field], message: `${wanted}; task ${taskId} is ${task.status}` }] };
  return { task, issues: [] };
}

/** An optional prior `lidar_task` (lidarsegmentation, lidartopdown): when given, a completed lidarannotation task. */
export const optionalPriorLidarTask = (params: { lidar_task?: string }, context: CreateContext): FitIssue[] =>
  params.lidar_task !== undefined ? findCompletedTask(params.lidar_task, ['lidarannotation'], context).issues : [];

/** A top-down view has no depth to draw boxes, cuboids or ellipses in: lidartopdown offers only these kinds. */
export const TOP_DOWN_KINDS = ['polygon', 'line', 'point'] as const;

/** Lists of names (polygons_labels, skip_labels, directed_line, groups): each a non-empty string. */
export const NameListSchema = z.array(z.string().refine((s) => s.trim() !== '', 'must be a non-empty name'));
