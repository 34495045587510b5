import {
  V2BatchListSchema,
  V2BatchMetadataBodySchema,
  V2BatchOperationResultSchema,
  V2BatchSchema,
  V2BatchSelectorSchema,
  V2CreateBatchBodySchema,
} from '../../domain/v2/objects.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Services } from '../../services/context.js';
import { listBatchesV2 } from '../../services/v2/batch-list.js';
import { createBatchV2, finalizeBatchV2, operateBatch, setBatchMetadataV2 } from '../../services/v2/batches.js';
import { requireBatchBy } from '../../services/v2/lookup.js';
import { batchView } from '../../services/v2/views.js';
import {
  batchSelector,
  batchStatus,
  completedRange,
  createdRange,
  expandOf,
  paging,
  projectSelector,
  v2Query,
} from './query-fields.js';

const tag = 'Batches';

/** pause, resume and cancel: a body naming the batch, an answer of the batch and a sentence. */
const operation = (services: Services, verb: 'pause' | 'resume' | 'cancel', summary: string, description: string) =>
  defineRoute({
    method: 'post',
    path: `/v2/batch/${verb}`,
    tag,
    summary,
    description,
    body: V2BatchSelectorSchema,
    response: V2BatchOperationResultSchema,
    errors: ['not_found'],
    handler: ({ tenant, body }) => operateBatch(services.store, tenant, body, verb),
  });

export function v2BatchRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v2/batch',
      tag,
      summary: 'Create a batch (in_progress, or staging with staging_batch)',
      description:
        'Creates a batch of a project named by project_id or project_name. Names are unique per account: a used ' +
        'name is a 409. v1 sees the same batch by name.',
      body: V2CreateBatchBodySchema,
      response: V2BatchSchema,
      errors: ['not_found', 'conflict'],
      handler: ({ tenant, body }) => createBatchV2(tenant, body),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/batch',
      tag,
      summary: 'Retrieve a batch by id or name',
      description: 'batch_id or batch_name names the batch; expand=project embeds its project.',
      query: v2Query({ ...batchSelector, expand: expandOf('project') }),
      response: V2BatchSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) =>
        batchView(tenant.shared, requireBatchBy(tenant, query), query.expand?.includes('project')),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/batches',
      tag,
      summary: 'List batches, newest first, paged by next_token',
      description:
        'Filters by project (id or name), v2 status, creation and completion time. The last page has no ' +
        'next_token.',
      query: v2Query({
        ...projectSelector,
        status: batchStatus,
        ...createdRange,
        ...completedRange,
        ...paging,
        expand: expandOf('project'),
      }),
      response: V2BatchListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listBatchesV2(tenant, query),
    }),
    defineRoute({
      method: 'post',
      path: '/v2/batch/finalize',
      tag,
      summary: 'Finalize a staging batch: staging to in_progress',
      description: 'Only a staging batch can be finalized; any other status is a 400 naming it.',
      body: V2BatchSelectorSchema,
      response: V2BatchSchema,
      errors: ['not_found'],
      handler: ({ tenant, body }) => finalizeBatchV2(services.store, tenant, body),
    }),
    operation(
      services,
      'pause',
      'Pause a batch in progress',
      'in_progress to paused (an empty batch too). Automatic completions of its tasks wait for the resume; v1 ' +
        'shows the batch in_progress.',
    ),
    operation(
      services,
      'resume',
      'Resume a paused batch',
      'paused to in_progress (or completed, when its tasks finished meanwhile); completions that came due while ' +
        'paused happen now.',
    ),
    operation(
      services,
      'cancel',
      'Cancel a batch and its pending tasks',
      'Any status but completed or cancelled to cancelled; its pending tasks are canceled and it takes no new ' +
        'ones. v1 shows the batch completed.',
    ),
    defineRoute({
      method: 'post',
      path: '/v2/batch/metadata',
      tag,
      summary: "Set a batch's metadata (merge: true merges, else replaces)",
      description: 'merge: true keeps the keys the body does not name; otherwise the metadata is replaced whole.',
      body: V2BatchMetadataBodySchema,
      response: V2BatchSchema,
      errors: ['not_found'],
      handler: ({ tenant, body }) => setBatchMetadataV2(tenant, body),
    }),
  ];
}
