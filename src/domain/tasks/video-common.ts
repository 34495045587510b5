import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { repeatedValues } from '../common/repeated.js';
import { isFullUrl } from '../common/values.js';
import type { FitIssue } from './annotation-fit.js';
import type { AnnotationAttributes } from './attributes.js';
import type { Geometries } from './geometries.js';
import type { Report } from './report.js';

/** Pieces shared by videoannotation and videoplaybackannotation: video URLs, events, the media rule. */

const VIDEO_EXTENSIONS = ['mp4', 'webm', 'ogg'];

/**
 * A video the service can play: an .mp4, .webm or .ogg file (query and fragment ignored), a data URL
 * of such a type, or an uploaded file (`scaledata://`), whose name need not carry an extension.
 */
function isVideoUrl(value: string): boolean {
  if (!isFullUrl(value)) return false;
  const url = new URL(value);
  if (url.protocol === 'scaledata:') return true;
  if (url.protocol === 'data:') return /^video\/(mp4|webm|ogg)[;,]/i.test(url.pathname);
  const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
  return VIDEO_EXTENSIONS.includes(extension);
}

const VIDEO_URL_RULE = 'must be a URL of an mp4, webm or ogg video file';

export const EventsToAnnotateSchema = z
  .array(z.string().refine((s) => s.trim() !== '', 'must be a non-empty event name'))
  .superRefine((events, ctx) => {
    const repeated = repeatedValues(events);
    if (repeated.length > 0)
      ctx.addIssue({
        code: 'custom',
        message: `must not repeat events (repeated: ${[...new Set(repeated)].join(', ')})`,
      });
  });

const FrameNumberSchema = z.number().int().min(0);

/** An annotated event: a single frame (point) or a span of frames (range), per the real service's events format. */
export const VideoEventSchema = extendApi(
  z
    .object({
      label: z.string().min(1),
      type: z.enum(['point', 'range']),
      start: FrameNumberSchema,
      startTime: z.number().min(0).optional(),
      end: FrameNumberSchema.optional(),
      endTime: z.number().min(0).optional(),
      attributes: z.record(z.unknown()).optional(),
    })
    .strict()
    .superRefine((event, ctx) => {
      if (event.type === 'range' && event.end === undefined)
        ctx.addIssue({ code: 'custom', path: ['end'], message: 'is required for a range event' });
      if (event.type === 'point' && event.end !== undefined)
        ctx.addIssue({ code: 'custom', path: ['end'], message: 'is only allowed on a range event' });
      if (event.end !== undefined && event.end < event.start)
        ctx.addIssue({ code: 'custom', path: ['end'], message: `must be at least start (${event.start})` });
    }),
  { description: 'An event: label (one of events_to_annotate), point or range, frame numbers and timestamps' },
);
export type VideoEvent = z.infer<typeof VideoEventSchema>;

/** Events must name one of the task's events_to_annotate; `frameCount` bounds frame numbers when known. */
export function checkEvents(
  events: readonly VideoEvent[] | undefined,
  eventsToAnnotate: readonly string[] | undefined,
  frameCount?: number,
): FitIssue[] {
  const issues: FitIssue[] = [];
  const allowed = eventsToAnnotate ?? [];
  (events ?? []).forEach((event, index) => {
    const path = ['response', 'events', index];
    if (!allowed.includes(event.label)) {
      const offered = allowed.length > 0 ? `(${allowed.join(', ')})` : '(the task has no events_to_annotate)';
      issues.push({
        path: [...path, 'label'],
        message: `is "${event.label}", not one of the task's events_to_annotate ${offered}`,
      });
    }
    const last = Math.max(event.start, event.end ?? event.start);
    if (frameCount !== undefined && last >= frameCount) {
      issues.push({
        path: [...path, event.end !== undefined ? 'end' : 'start'],
        message: `is frame ${last}, beyond the response's ${frameCount} frame(s)`,
      });
    }
  });
  return issues;
}

/**
 * The cross-field rule of both video types: with attachment_type video, the field at `path` must
 * name a video file. Checked only when it holds a string (absence and arrays have their own rules).
 */
export function checkVideoUrl(value: unknown, path: string, report: Report): void {
  // A value that is no URL at all already has its issue (refinement issues do not stop superRefine).
  if (typeof value === 'string' && isFullUrl(value) && !isVideoUrl(value)) {
    report([path], `${VIDEO_URL_RULE} when attachment_type is video`);
  }
}

/** What response checks and synthesis read from a video task's params. */
export type VideoParams = {
  attachment_type?: string;
  attachments?: string | string[];
  geometries: Geometries;
  annotation_attributes?: AnnotationAttributes;
  events_to_annotate?: string[];
  frame_rate?: number;
  start_time?: number;
  duration_time?: number;
};
