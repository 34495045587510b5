import { z } from 'zod';
import { synthesizePlayback } from '../../../synth/video.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { AnnotationAttributesSchema } from '../attributes.js';
import { BaseAnnotationPermissionShape, PaddingShape } from '../common-params.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { GeometriesSchema } from '../geometries.js';
import { ImageHypothesisSchema } from '../image-annotations.js';
import { reportAll } from '../report.js';
import { checkVideoUrl, EventsToAnnotateSchema } from '../video-common.js';
import { checkVideoPlaybackResponse, VideoPlaybackResponseSchema } from '../video-playback.js';
import { checkGeometryDependents } from './imageannotation.js';

/** What a video playback task's `params` hold. */
const VideoPlaybackParamsSchema = z.object({
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
});

const VideoPlaybackAnnotationCreateSchema = createBodySchema(VideoPlaybackParamsSchema, {}, (body, report) => {
  // A playback needs its video: required (and a video file) unless attachment_type is image.
  if ((body.attachment_type ?? 'video') === 'video') {
    if (body.attachment === undefined)
      report(['attachment'], 'is required when attachment_type is video (a URL of an mp4, webm or ogg file)');
    checkVideoUrl(body.attachment, 'attachment', report);
  }
  checkGeometryDependents(
    {
      geometries: body.geometries,
      annotation_attributes: body.annotation_attributes,
      base_annotations: body.base_annotations,
    },
    report,
  );
});

export const videoplaybackannotation = defineTaskType({
  type: 'videoplaybackannotation',
  summary:
    'Create a video playback annotation task (a video file viewed and annotated at frame_rate frames per second)',
  createSchema: VideoPlaybackAnnotationCreateSchema,
  params: VideoPlaybackParamsSchema,
  response: VideoPlaybackResponseSchema,
  schemaName: 'VideoPlaybackAnnotation',
  // The endpoint annotates a video file; frame_rate defaults to 1 frame per second.
  paramDefaults: { attachment_type: 'video', frame_rate: 1 },
  checkResponse: (params, response, report) => reportAll(report, checkVideoPlaybackResponse(params, response)),
  synthesize: (params, rng) => synthesizePlayback(params, rng),
});
