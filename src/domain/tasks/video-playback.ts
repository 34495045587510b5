import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { checkAnnotationsFit, checkAttributeValues, type FitIssue } from './annotation-fit.js';
import type { AnnotationAttributes } from './attributes.js';
import type { Geometries } from './geometries.js';
import { ImageAnnotationSchema } from './image-annotations.js';
import { checkEvents, VideoEventSchema } from './video-common.js';

/**
 * The videoplaybackannotation response, after the real service's playback format: annotated objects
 * keyed by uuid, each with its label, geometry and one entry per annotated frame. The real service
 * uploads that dictionary (and the events) as JSON files and sends their URLs; the mock inlines them.
 * Keying by uuid makes "same uuid, same object, same label" hold by construction.
 */

const PlaybackFrameSchema = extendApi(
  z
    .object({
      key: z.number().int().min(0),
      timestamp: z.number().min(0),
      attributes: z.record(z.unknown()).default({}),
    })
    .passthrough(),
  {
    description:
      'The object in one annotated frame: frame key, timestamp (seconds) and attributes, ' +
      'plus the fields of its geometry ' +
      '(box: left, top, width, height; polygon, line, ellipse: vertices; point: x, y; cuboid: vertices, edges)',
  },
);

const PlaybackObjectSchema = z
  .object({
    label: z.string().min(1),
    geometry: z.enum(['box', 'polygon', 'line', 'point', 'ellipse', 'cuboid']),
    frames: z.array(PlaybackFrameSchema).min(1),
  })
  .strict()
  .superRefine((object, ctx) => {
    // Each frame carries the geometry's own fields: validate them with the image annotation shapes.
    object.frames.forEach((frame, index) => {
      const parsed = ImageAnnotationSchema.safeParse({
        ...frame,
        type: object.geometry,
        uuid: 'frame',
        label: object.label,
      });
      if (!parsed.success)
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['frames', index, ...issue.path] });
    });
  });

export const VideoPlaybackResponseSchema = z
  .object({
    annotations: extendApi(z.record(PlaybackObjectSchema), { description: 'Annotated objects keyed by uuid' }),
    events: z.array(VideoEventSchema).optional(),
  })
  .strict();
export type VideoPlaybackResponse = z.infer<typeof VideoPlaybackResponseSchema>;

interface PlaybackParams {
  geometries: Geometries;
  annotation_attributes?: AnnotationAttributes;
  events_to_annotate?: string[];
}

export function checkVideoPlaybackResponse(params: PlaybackParams, response: VideoPlaybackResponse): FitIssue[] {
  const issues: FitIssue[] = [];
  for (const [uuid, object] of Object.entries(response.annotations)) {
    const base = ['response', 'annotations', uuid];
    // The object-level check of image annotations, reported at the object's own fields.
    const fit = checkAnnotationsFit(
      [{ type: object.geometry, label: object.label }],
      params.geometries,
      undefined,
      base,
    );
    issues.push(
      ...fit.map((issue) => ({
        ...issue,
        path: [...base, ...issue.path.slice(base.length + 1).map((p) => (p === 'type' ? 'geometry' : p))],
      })),
    );
    object.frames.forEach((frame, index) => {
      const path = [...base, 'frames', index];
      const previous = object.frames[index - 1];
      if (previous && frame.key <= previous.key) {
        issues.push({
          path: [...path, 'key'],
          message:
            `is ${frame.key}, not after the previous frame's key ${previous.key} ` +
            `(frames are in temporal order, one per key)`,
        });
      }
      issues.push(...checkAttributeValues(frame.attributes, params.annotation_attributes, [...path, 'attributes']));
    });
  }
  issues.push(...checkEvents(response.events, params.events_to_annotate));
  return issues;
}
