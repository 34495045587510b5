import { z } from 'zod';
import { LidarSequenceShape } from './lidar-common.js';

/** The lidar segmentation type's wire shapes: its params and its response (checks and definition: types/). */

/**
 * What a lidar segmentation task's `params` hold: each lidar point gets a class. Standalone, or as
 * a follow-up of a finished lidarannotation task named by `lidar_task` (the interface's dependent
 * creation, available here as a direct parameter).
 */
export const LidarSegmentationParamsSchema = z.object({
  ...LidarSequenceShape,
  lidar_task: z.string().min(1).optional(),
});
export type LidarSegmentationParams = z.infer<typeof LidarSegmentationParamsSchema>;

const PointClassesSchema = z.array(z.number().int().min(0));

/**
 * One frame's classification: `labels[i]` is the class of the frame's i-th point, an index into
 * the response's `label_mapping`; `instance_ids[i]` (optional) separates objects of instance labels,
 * 0 meaning "no instance".
 */
const LidarSegmentationFrameSchema = z
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
