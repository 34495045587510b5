import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { checkAnnotationsFit, type FitIssue } from './annotation-fit.js';
import { type ImageAnnotation, ImageAnnotationSchema } from './image-annotations.js';
import { checkEvents, VideoEventSchema, type VideoParams } from './video-common.js';

/**
 * The videoannotation response. The real service uploads a JSON file (a list of AnnotationFrame
 * objects, one per frame, in temporal order) and puts its URL in `annotations.url`; the mock has no
 * file host, so it inlines that list as `annotations`. Events sit beside it, as in the events format.
 */

const VideoFrameSchema = extendApi(z.object({ annotations: z.array(ImageAnnotationSchema) }).strict(), {
  description: 'One frame: its annotations; the same uuid denotes the same object (with the same label) across frames',
});

export const VideoAnnotationResponseSchema = z
  .object({
    annotations: extendApi(z.array(VideoFrameSchema), { description: 'One entry per frame, in temporal order' }),
    events: z.array(VideoEventSchema).optional(),
  })
  .strict();
export type VideoAnnotationResponse = z.infer<typeof VideoAnnotationResponseSchema>;

export function checkVideoAnnotationResponse(params: VideoParams, response: VideoAnnotationResponse): FitIssue[] {
  const frames = response.annotations;
  const issues: FitIssue[] = [];
  // Image frames are the task's attachments: the response has exactly one frame per attachment.
  if (
    params.attachment_type !== 'video' &&
    Array.isArray(params.attachments) &&
    frames.length !== params.attachments.length
  ) {
    issues.push({
      path: ['response', 'annotations'],
      message:
        `has ${frames.length} frame(s), but the task has ${params.attachments.length} attachments ` +
        `(one frame per attachment)`,
    });
  }
  frames.forEach((frame, index) => {
    issues.push(
      ...checkAnnotationsFit(frame.annotations, params.geometries, params.annotation_attributes, [
        'response',
        'annotations',
        index,
        'annotations',
      ]),
    );
  });
  issues.push(
    ...checkObjectIdentity(frames),
    ...checkEvents(response.events, params.events_to_annotate, frames.length),
  );
  return issues;
}

/** A uuid is one object: it keeps its label and geometry in every frame and appears once per frame. */
function checkObjectIdentity(frames: readonly { annotations: readonly ImageAnnotation[] }[]): FitIssue[] {
  const issues: FitIssue[] = [];
  const firstSeen = new Map<string, { label: string; type: string; frame: number }>();
  frames.forEach((frame, f) => {
    const inFrame = new Set<string>();
    frame.annotations.forEach((annotation, i) => {
      const path = ['response', 'annotations', f, 'annotations', i];
      if (inFrame.has(annotation.uuid))
        issues.push({ path: [...path, 'uuid'], message: `repeats uuid "${annotation.uuid}" within frame ${f}` });
      inFrame.add(annotation.uuid);
      const first = firstSeen.get(annotation.uuid);
      if (!first) {
        firstSeen.set(annotation.uuid, { label: annotation.label, type: annotation.type, frame: f });
        return;
      }
      for (const key of ['label', 'type'] as const) {
        if (annotation[key] !== first[key]) {
          issues.push({
            path: [...path, key],
            message:
              `is "${annotation[key]}", but uuid "${annotation.uuid}" ` +
              `has ${key} "${first[key]}" in frame ${first.frame} ` +
              `(an object keeps its ${key} across frames)`,
          });
        }
      }
    });
  });
  return issues;
}
