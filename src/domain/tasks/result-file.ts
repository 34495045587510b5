import { extendApi } from '@anatine/zod-openapi';
import { type ZodTypeAny, z } from 'zod';
import type { TaskTypeDefinition } from './type-definition.js';

/**
 * The response of a type whose results the real service delivers as a file: a link to the JSON file of the
 * results. For lidarannotation the file is the list of labeled frames with their cuboids, which
 * scale_lidar_io (PyPI scale-lidar-io, LidarAnnotationTask.get_annotations) downloads from
 * `response.annotations.url` with a plain GET.
 */
const ResultFileLinkSchema = z
  .object({
    annotations: z
      .object({
        url: extendApi(z.string(), {
          format: 'uri',
          description: 'The results file (JSON): a plain GET, no key, answers it',
        }),
      })
      .strict(),
  })
  .strict();

/** The `response` a client reads of a completed task of the type: the link, or the response itself. */
export const deliveredResponseSchema = (def: TaskTypeDefinition): ZodTypeAny =>
  def.resultsByFile ? ResultFileLinkSchema : def.responseSchema;

/**
 * What the file at `response.annotations.url` holds: the response's `annotations`, a JSON list of the labeled
 * frames with their cuboids, not the response object. scale_lidar_io's LidarAnnotationTask (scale-lidar-io,
 * scale_lidar_io/task.py) loads the file and walks it as that list: `for frame in annotations:` ...
 * `frame['cuboids']` (get_cuboid_positions_by_frame).
 */
export function resultFileBody(response: Record<string, unknown>): unknown {
  return response.annotations;
}

/** The schema of the file a type's results come in: its response schema's `annotations`. */
export function resultFileSchema(def: TaskTypeDefinition): ZodTypeAny | undefined {
  const schema = def.responseSchema;
  return def.resultsByFile && schema instanceof z.ZodObject ? schema.shape.annotations : undefined;
}
