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
      response: StudioBatchListSchema,
      errors: ['unauthorized'],
      handler: ({ tenant }) => listStudioBatches(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/batches/set_priorities',
      tag,
      summary: 'Set the priority order: the body lists every pending Studio batch, first = highest',
      body: SetPrioritiesBodySchema,
      response: StudioBatchListSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
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
      response: StudioBatchListSchema,
      errors: ['unauthorized'],
      handler: ({ tenant }) => resetBatchPriorities(tenant),
    }),
    ...(['put', 'post'] as const).map((method) =>
      defineRoute({
        method,
        path: '/v1/studio/batches/{batch}',
        tag,
        summary: `Replace a pending batch's labeler groups; a teammate's e-mail adds that member alone${method === 'post' ? ' (POST alternative to PUT)' : ''}`,
        params: BatchParamsSchema,
        body: SetBatchGroupsBodySchema,
        response: StudioBatchSchema,
        errors: ['invalid_request', 'unauthorized', 'not_found'],
        examples: () => ({ request: { groups: ['night-shift', 'labeler@example.com'] } }),
        handler: ({ tenant, params, body }) => setBatchGroups(tenant, services.ids, params.batch, body.groups),
      }),
    ),
    defineRoute({
      method: 'post',
      path: sendPath,
      tag,
      summary: sendSummary,
      params: ProjectNameParamsSchema,
      body: SendToCompletedBodySchema,
      response: SendToCompletedResultSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      examples: () => ({ request: { batches: ['batch-1'] } }),
      handler: ({ tenant, params, body }) => sendTasksToCompleted(tenant, params.projectName, body),
    }),
    defineRoute({
      method: 'get',
      path: sendPath,
      tag,
      summary: `${sendSummary} (GET alternative, options in the query)`,
      params: ProjectNameParamsSchema,
      query: SendToCompletedQuerySchema,
      response: SendToCompletedResultSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params, query }) => sendTasksToCompleted(tenant, params.projectName, query),
    }),
  ];
}
