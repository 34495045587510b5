import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ShardIdSchema } from '../domain/control/shard.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { resultFileSchema } from '../domain/tasks/result-file.js';
import { last } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { readResultFile } from '../services/result-files.js';

/**
 * GET /_mock/results/{taskId}/{token}: the results file a completed lidarannotation task links in
 * `response.annotations.url`. Public, as the real service's result URLs are: scale_lidar_io fetches it with a plain
 * GET. The token in the path is the file's secret (services/result-files.ts).
 */
export function resultRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/results/{taskId}/{token}',
      tag: 'Control',
      summary: "A task's results file, as its response links it (no key needed)",
      description:
        'The JSON a completed task of a type whose results come as a file holds (lidarannotation: the list of ' +
        "its labeled frames with their cuboids, as scale_lidar_io reads it). The URL is in the task's " +
        "`response.annotations.url`; the token in it is the file's secret, so only who was given the URL reads " +
        'it. 404 for anything else.',
      public: true,
      params: z.object({ taskId: z.string(), token: z.string() }).strict(),
      query: z
        .object({
          shard: extendApi(z.preprocess(last, ShardIdSchema.optional()), {
            description:
              'The shard that holds the task (a server started with --shard-id puts it in the link): a router sends ' +
              'the request there; a server that is another shard answers 404 naming both.',
          }),
        })
        .strict(),
      // The content of each type whose results come as a file (lidarannotation's frames, today the only one).
      response: resultFileContent(),
      examples: () => ({
        response: [
          {
            frame_index: 1,
            cuboids: [
              {
                uuid: 'c-1',
                label: 'car',
                attributes: {},
                position: { x: 12.5, y: -3, z: 0.8 },
                dimensions: { x: 4.5, y: 1.9, z: 1.6 },
                yaw: 0.3,
              },
            ],
          },
        ],
      }),
      errors: ['not_found'],
      handler: ({ params, query }) =>
        readResultFile(services.store, params.taskId, params.token, {
          named: query.shard,
          self: services.config.shardId,
        }),
    }),
  ];
}

function resultFileContent(): z.ZodTypeAny {
  const [first, ...others] = Object.values(TASK_TYPES).flatMap((def) => resultFileSchema(def) ?? []);
  if (!first) return z.object({}).passthrough();
  return others.length === 0 ? first : z.union([first, ...others] as [z.ZodTypeAny, z.ZodTypeAny]);
}
