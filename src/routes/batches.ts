import { z } from 'zod';
import {
  BatchListSchema,
  BatchNameParamsSchema,
  BatchPriorityBodySchema,
  BatchSchema,
  BatchStatusResultSchema,
  BatchStatusSchema,
  CreateBatchBodySchema,
} from '../domain/batches/schemas.js';
import { MetadataBodySchema, ResultSuccessSchema } from '../domain/common/values.js';
import { last, queryBoolean, queryInt, queryString, queryTime, queryTimeEnd } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { listBatches } from '../services/batch-list.js';
import {
  batchStatus,
  createBatch,
  finalizeBatch,
  prioritizeBatch,
  requireBatch,
  setBatchMetadata,
} from '../services/batches.js';
import type { Services } from '../services/context.js';

const ListQuerySchema = z.object({
  project: queryString,
  status: z.preprocess(last, BatchStatusSchema.optional()),
  start_time: queryTime,
  end_time: queryTimeEnd,
  detailed: queryBoolean,
  exclude_archived: queryBoolean,
  limit: queryInt(1, 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER),
});

const named = (summary: string) => ({ tag: 'Batches', summary, params: BatchNameParamsSchema });

export function batchRoutes(services: Services): RouteSpec[] {
  const { store } = services;
  return [
    defineRoute({
      method: 'post',
      path: '/v1/batches',
      tag: 'Batches',
      summary: 'Create a batch (staging for rapid or studio projects, in_progress otherwise)',
      description:
        'Creates a batch of a project. Names are unique per account: a used name is a 409. A batch of a Rapid or ' +
        'Studio project stays staging until finalized; any other starts in_progress.',
      body: CreateBatchBodySchema,
      response: BatchSchema,
      errors: ['not_found', 'conflict'],
      handler: ({ tenant, body }) => createBatch(tenant, body),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches',
      tag: 'Batches',
      summary: 'List batches, newest first, paged by limit and offset',
      description:
        "Filters by project, status and creation time (start_time, end_time); detailed=true adds each batch's " +
        'tasks counted by status.',
      query: ListQuerySchema,
      response: BatchListSchema,
      errors: [],
      handler: ({ tenant, query }) => listBatches(store, tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches/{batchName}',
      ...named('Retrieve a batch'),
      description: 'Answers a batch of the account; any other name is a 404.',
      response: BatchSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => requireBatch(tenant, params.batchName).batch,
    }),
    defineRoute({
      method: 'post',
      path: '/v1/batches/{batchName}/finalize',
      ...named('Finalize a batch: staging to in_progress (a plain project batch: no change)'),
      description:
        'Moves a staging batch to in_progress, so its tasks get worked on; a batch already in progress is ' +
        'answered as it is.',
      response: BatchSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => finalizeBatch(store, tenant, params.batchName),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batches/{batchName}/status',
      ...named("A batch's status and its tasks counted by status"),
      description: 'Answers the batch status with its tasks counted by status: pending, completed, error and canceled.',
      response: BatchStatusResultSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => batchStatus(store, tenant, params.batchName),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/batches/{batchName}/prioritize',
      ...named('Set the batch priority (10 to 30)'),
      description: "Sets the batch's priority, an integer from 10 to 30.",
      body: BatchPriorityBodySchema,
      response: ResultSuccessSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, body }) => prioritizeBatch(tenant, params.batchName, body.priority),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/batches/{batchName}/setMetadata',
      ...named('Replace the metadata of a batch'),
      description: 'The body is the new metadata object (at most 10 KB as JSON), which replaces the old one whole.',
      body: MetadataBodySchema,
      // The body is the metadata itself: errors name it "metadata", and its `__proto__` keys are kept.
      bodyName: 'metadata',
      jsonLimits: { metadata: true },
      response: BatchSchema,
      errors: ['not_found'],
      absentBody: () => ({}),
      handler: ({ tenant, params, body }) => setBatchMetadata(tenant, params.batchName, body),
    }),
  ];
}
