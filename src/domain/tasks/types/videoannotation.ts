import { z } from 'zod';
import { synthesizeVideoFrames } from '../../../synth/video.js';
import { AttachmentUrlSchema } from '../../common/values.js';
import { AnnotationAttributesSchema } from '../attributes.js';
import { BaseAnnotationPermissionShape, PaddingShape } from '../common-params.js';
import { createBodySchema } from '../create-body.js';
import { defineTaskType } from '../define-task-type.js';
import { GeometriesSchema } from '../geometries.js';
import { ImageHypothesisSchema } from '../image-annotations.js';
import { type Report, reportAll } from '../report.js';
import { checkVideoUrl, EventsToAnnotateSchema } from '../video-common.js';
import { checkVideoAnnotationResponse, VideoAnnotationResponseSchema } from '../video-frames.js';
import { checkGeometryDependents } from './imageannotation.js';

// Which branch applies depends on attachment_type: the cross-field rules below say which one was expected.
const AttachmentsSchema = z.union([z.array(AttachmentUrlSchema), AttachmentUrlSchema], {
  errorMap: () => ({ message: 'must be an array of frame URLs or one video URL, each an absolute URL with a scheme' }),
});

/** What a video annotation task's `params` hold. */
const VideoAnnotationParamsSchema = z.object({
  attachment_type: z.enum(['image', 'video']).optional(),
  attachments: AttachmentsSchema.optional(),
  /** The real service's field for the video file; the interface's table gives it as a string `attachments`. */
  attachment: AttachmentUrlSchema.optional(),
  geometries: GeometriesSchema,
  annotation_attributes: AnnotationAttributesSchema.optional(),
  events_to_annotate: EventsToAnnotateSchema.optional(),
  links: z.record(z.unknown()).optional(),
  frame_rate: z.number().int().min(1).optional(),
  start_time: z.number().min(0).optional(),
  duration_time: z.number().min(0).optional(),
  ...PaddingShape,
  // The interface does not show the video hypothesis's shape.
  hypothesis: z.record(z.unknown()).optional(),
  base_annotations: ImageHypothesisSchema.optional(),
  ...BaseAnnotationPermissionShape,
});

const VideoAnnotationCreateSchema = createBodySchema(VideoAnnotationParamsSchema, {}, (body, report) => {
  if ((body.attachment_type ?? 'image') === 'image') checkImageFrames(body, report);
  else checkVideoFile(body, report);
  checkGeometryDependents(
    {
      geometries: body.geometries,
      annotation_attributes: body.annotation_attributes,
      base_annotations: body.base_annotations,
    },
    report,
  );
});
type VideoAnnotationCreate = z.infer<typeof VideoAnnotationCreateSchema>;

type Media = Pick<VideoAnnotationCreate, 'attachments' | 'attachment'>;

/** Image frames stitched into a video: `attachments` is required and an array. */
function checkImageFrames(body: Media, report: Report): void {
  if (body.attachments === undefined) {
    report(['attachments'], 'is required when attachment_type is image (an array of frame URLs)');
  } else if (!Array.isArray(body.attachments)) {
    report(['attachments'], 'must be an array of frame URLs when attachment_type is image');
  } else if (body.attachments.length === 0) {
    report(['attachments'], 'must have at least 1 frame URL');
  }
  if (body.attachment !== undefined) {
    report(['attachment'], 'is only allowed when attachment_type is video (image frames go in attachments)');
  }
}

/** One video file, given as `attachment` or as a single-URL `attachments`, never both and never an array. */
function checkVideoFile(body: Media, report: Report): void {
  if (Array.isArray(body.attachments)) {
    report(['attachments'], 'must be a single video URL, not an array, when attachment_type is video');
    return;
  }
  if (body.attachments !== undefined && body.attachment !== undefined) {
    report(['attachments'], 'must be omitted when attachment is given (one video URL per task)');
    return;
  }
  if (body.attachments === undefined && body.attachment === undefined) {
    report(['attachment'], 'is required when attachment_type is video (a URL of an mp4, webm or ogg file)');
    return;
  }
  checkVideoUrl(body.attachments, 'attachments', report);
  checkVideoUrl(body.attachment, 'attachment', report);
}

export const videoannotation = defineTaskType({
  type: 'videoannotation',
  summary: 'Create a video annotation task (image frames or a video file; objects tracked across frames by uuid)',
  createSchema: VideoAnnotationCreateSchema,
  params: VideoAnnotationParamsSchema,
  response: VideoAnnotationResponseSchema,
  schemaName: 'VideoAnnotation',
  // The interface lists with_labels among the params of a video task; labels are always returned here.
  paramDefaults: { attachment_type: 'image', with_labels: true },
  checkResponse: (params, response, report) => reportAll(report, checkVideoAnnotationResponse(params, response)),
  synthesize: (params, rng) => synthesizeVideoFrames(params, rng),
});
