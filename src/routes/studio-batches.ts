import { z } from 'zod';
import {
  BatchParamsSchema,
  ProjectNameParamsSchema,
  SendToCompletedBodySchema,
  SendToCompletedResultSchema,
  SetBatchGroupsBodySchema,
  SetPrioritiesBodySchema,
  StudioBatchListSchema,
  StudioBatchSchema,
} from '../domain/studio/schemas.js';
import { queryBoolean, queryList } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import {
  listStudioBatches,
  resetBatchPriorities,
  setBatchGroups,
  setBatchPriorities,
} from '../services/studio-batches.js';
import { sendTasksToCompleted } from '../services/studio-completion.js';

const tag = 'Studio';
const SendToCompletedQuerySchema = z.object({ all_batches: queryBoolean, batches: queryList });
const sendPath = '/v1/studio/projects/{projectName}/send_tasks_to_completed';
const sendSummary = 'Complete the unfinished tasks of the listed batches (all_batches wins over batches)';

/** Studio batches: priority order, group assignment, and sending unfinished work to completed. */
export function studioBatchRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/studio/batches',
      tag,
      summary: 'Pending Studio batches (staging or in progress), highest priority first',
      description:
        'Answers the staging and in-progress batches of Studio projects, highest priority first, with their task ' +
        'counts and labeler groups.',
      response: StudioBatchListSchema,
      errors: [],
      handler: ({ tenant }) => listStudioBatches(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/batches/set_priorities',
      tag,
      summary: 'Set the priority order: the body lists every pending Studio batch, first = highest',
      description:
        'The body lists every pending Studio batch once, in the new order (the first is worked on first); entries ' +
        'may be whole batch objects from GET /v1/studio/batches. Answers the batches in their new order.',
      body: SetPrioritiesBodySchema,
      response: StudioBatchListSchema,
      errors: ['not_found'],
      examples: () => ({ request: { batches: [{ name: 'batch-2' }, { name: 'batch-1' }] } }),
      handler: ({ tenant, body }) =>
        setBatchPriorities(
          tenant,
          body.batches.map((b) => b.name),
        ),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/batches/reset_priorities',
      tag,
      summary: 'Restore the default order: calibration batches first, then by creation',
      description:
        'Drops the custom order: calibration batches first, then the others by creation. Answers the batches in ' +
        'order.',
      response: StudioBatchListSchema,
      errors: [],
      handler: ({ tenant }) => resetBatchPriorities(tenant),
    }),
    ...(['put', 'post'] as const).map((method) =>
      defineRoute({
        method,
        path: '/v1/studio/batches/{batch}',
        tag,
        summary:
          "Replace a pending batch's labeler groups; a teammate's e-mail adds that member alone" +
          (method === 'post' ? ' (POST alternative to PUT)' : ''),
        description:
          "Replaces the labeler groups that work on a pending Studio batch; a teammate's e-mail in `groups` " +
          'stands for a group of that teammate alone. Answers the batch.',
        params: BatchParamsSchema,
        body: SetBatchGroupsBodySchema,
        response: StudioBatchSchema,
        errors: ['not_found'],
        examples: () => ({ request: { groups: ['night-shift', 'labeler@example.com'] } }),
        handler: ({ tenant, params, body }) => setBatchGroups(tenant, services.ids, params.batch, body.groups),
      }),
    ),
    defineRoute({
      method: 'post',
      path: sendPath,
      tag,
      summary: sendSummary,
      description:
        "Completes the unfinished tasks of the project's batches named in `batches`, or of all its batches with " +
        'all_batches: true. Answers the batches touched and how many tasks were completed.',
      params: ProjectNameParamsSchema,
      body: SendToCompletedBodySchema,
      response: SendToCompletedResultSchema,
      errors: ['not_found'],
      examples: () => ({ request: { batches: ['batch-1'] } }),
      handler: ({ tenant, params, body }) => sendTasksToCompleted(tenant, params.projectName, body),
    }),
    defineRoute({
      method: 'get',
      path: sendPath,
      tag,
      summary: `${sendSummary} (GET alternative, options in the query)`,
      description: 'As the POST form, with all_batches and batches in the query.',
      params: ProjectNameParamsSchema,
      query: SendToCompletedQuerySchema,
      response: SendToCompletedResultSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, query }) => sendTasksToCompleted(tenant, params.projectName, query),
    }),
  ];
}
