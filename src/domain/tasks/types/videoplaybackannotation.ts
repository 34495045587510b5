import { z } from 'zod';
import { synthesizePlayback } from '../../../synth/video.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { AnnotationAttributesSchema } from '../attributes.js';
import { BaseAnnotationPermissionShape, CommonCreateShape, PaddingShape } from '../common-params.js';
import { GeometriesSchema } from '../geometries.js';
import { ImageHypothesisSchema } from '../image-annotations.js';
import type { TaskTypeDefinition } from '../type-definition.js';
import { checkVideoUrl, EventsToAnnotateSchema } from '../video-common.js';
import {
  checkVideoPlaybackResponse,
  type VideoPlaybackResponse,
  VideoPlaybackResponseSchema,
} from '../video-playback.js';
import { checkGeometryDependents } from './imageannotation.js';

export const VideoPlaybackAnnotationCreateSchema = z
  .object({
    ...CommonCreateShape,
    attachment: AttachmentUrlSchema.optional(),
    attachment_type: z.enum(['image', 'video']).optional(),
    geometries: GeometriesSchema,
    annotation_attributes: AnnotationAttributesSchema.optional(),
    events_to_annotate: EventsToAnnotateSchema.optional(),
    // The timing parameters are ignored when attachment_type is image, but still validated.
    duration_time: z.number().min(0).optional(),
    frame_rate: z.number().int().min(1).optional(),
    start_time: z.number().int().min(0).optional(),
    ...PaddingShape,
    base_annotations: ImageHypothesisSchema.optional(),
    ...BaseAnnotationPermissionShape,
  })
  .strict()
  .superRefine((body, ctx) => {
    // A playback needs its video: required (and a video file) unless attachment_type is image.
    if ((body.attachment_type ?? 'video') === 'video') {
      if (body.attachment === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachment'],
          message: 'is required when attachment_type is video (a URL of an mp4, webm or ogg file)',
        });
      }
      checkVideoUrl(body.attachment, 'attachment', ctx);
    }
    checkGeometryDependents(
      {
        geometries: body.geometries,
        annotation_attributes: body.annotation_attributes,
        base_annotations: body.base_annotations,
      },
      ctx,
    );
  });
export type VideoPlaybackAnnotationCreate = z.infer<typeof VideoPlaybackAnnotationCreateSchema>;

type PlaybackParams = Pick<
  VideoPlaybackAnnotationCreate,
  | 'attachment_type'
  | 'geometries'
  | 'annotation_attributes'
  | 'events_to_annotate'
  | 'frame_rate'
  | 'start_time'
  | 'duration_time'
>;

export const videoplaybackannotation: TaskTypeDefinition = {
  type: 'videoplaybackannotation',
  summary:
    'Create a video playback annotation task (a video file viewed and annotated at frame_rate frames per second)',
  createSchema: VideoPlaybackAnnotationCreateSchema,
  responseSchema: VideoPlaybackResponseSchema,
  schemaName: 'VideoPlaybackAnnotation',
  // The endpoint annotates a video file; frame_rate defaults to 1 frame per second.
  paramDefaults: { attachment_type: 'video', frame_rate: 1 },
  checkResponse: (task, response) =>
    checkVideoPlaybackResponse(task.params as PlaybackParams, response as VideoPlaybackResponse),
  synthesize: (task, rng) => synthesizePlayback(task.params as PlaybackParams, rng),
};
