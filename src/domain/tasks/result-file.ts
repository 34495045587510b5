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
