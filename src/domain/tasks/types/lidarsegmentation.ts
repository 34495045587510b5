import { synthesizeLidarSegmentation } from '../../../synth/lidar-segmentation.js';
import { leafLabels } from '../../common/labels.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { instanceLeafLabels, optionalPriorLidarTask } from '../lidar-common.js';
import {
  type LidarSegmentationParams,
  LidarSegmentationParamsSchema,
  type LidarSegmentationResponse,
  LidarSegmentationResponseSchema,
} from '../lidar-segmentation-schemas.js';
import { type IssuePath, type Report, reportAll } from '../report.js';

const LidarSegmentationCreateSchema = createBodySchema(LidarSegmentationParamsSchema, {});

function checkMapping(params: LidarSegmentationParams, mapping: string[], report: Report): void {
  const leaves = leafLabels(params.labels);
  // Sets, not includes/indexOf per entry: a long mapping must cost its length, not its square.
  const known = new Set(leaves);
  const seen = new Set<string>();
  mapping.forEach((name, index) => {
    const path = ['response', 'label_mapping', index];
    if (!known.has(name)) report(path, `is "${name}", not one of the task's leaf labels (${leaves.join(', ')})`);
    else if (seen.has(name)) report(path, `repeats label "${name}"`);
    seen.add(name);
  });
}

function checkFrame(
  frame: LidarSegmentationResponse['annotations'][number],
  mapping: string[],
  instanceLabels: string[],
  path: IssuePath,
  report: Report,
): void {
  const badClass = frame.labels.findIndex((value) => value >= mapping.length);
  if (badClass >= 0) {
    const rule = `is ${frame.labels[badClass]}, not an index of label_mapping (0 to ${mapping.length - 1})`;
    report([...path, 'labels', badClass], rule);
  }
  // The point's label name; none for a class index outside label_mapping (reported above).
  const labelOf = (point: number) => {
    const index = frame.labels[point];
    return index === undefined ? undefined : mapping[index];
  };
  const badInstance = (frame.instance_ids ?? []).findIndex((id, i) => {
    const label = labelOf(i);
    return id !== 0 && label !== undefined && !instanceLabels.includes(label);
  });
  if (badInstance >= 0) {
    const rule = `must be 0: the point's label "${labelOf(badInstance)}" is not an instance label`;
    report([...path, 'instance_ids', badInstance], rule);
  }
}

function checkLidarSegmentationResponse(
  params: LidarSegmentationParams,
  response: LidarSegmentationResponse,
  report: Report,
): void {
  const frameCount = params.attachments.length;
  const instanceLabels = instanceLeafLabels(params.labels);
  checkMapping(params, response.label_mapping, report);
  const seen = new Set<number>();
  response.annotations.forEach((frame, index) => {
    const path = ['response', 'annotations', index];
    if (frame.frame_index > frameCount)
      report([...path, 'frame_index'], `is ${frame.frame_index}, beyond the task's ${frameCount} frame(s)`);
    else if (seen.has(frame.frame_index)) report([...path, 'frame_index'], `repeats frame ${frame.frame_index}`);
    seen.add(frame.frame_index);
    checkFrame(frame, response.label_mapping, instanceLabels, path, report);
  });
}

export const lidarsegmentation = defineTaskType({
  type: 'lidarsegmentation',
  summary: 'Create a lidar segmentation task (a class for every point of every frame)',
  createSchema: LidarSegmentationCreateSchema,
  params: LidarSegmentationParamsSchema,
  response: LidarSegmentationResponseSchema,
  schemaName: 'LidarSegmentation',
  checkCreate: (params, context, report) => reportAll(report, optionalPriorLidarTask(params, context)),
  checkResponse: checkLidarSegmentationResponse,
  synthesize: (params, rng) => synthesizeLidarSegmentation(params, rng),
  // A lidar root names itself as its dependents' lidar_task.
  toDependent: (root) => ({ lidar_task: root.taskId }),
});
