import { z } from 'zod';
import {
  CreateDatasetBodySchema,
  DeliverBodySchema,
  RegisterSchemaBodySchema,
  V2DatasetDeliverySchema,
  V2DatasetSchema,
  V2DeliverySchema,
  V2SchemaResultSchema,
} from '../domain/v2/catalog.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { createDataset, registerSchema } from '../services/v2/datasets.js';
import { deliver } from '../services/v2/deliveries.js';

const tag = 'Control';

/** Make what v2 reads but the service has no route to create: deliveries, response schemas, datasets. */
export function v2ControlRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/_mock/v2/deliveries',
      tag,
      summary: "Deliver a project's completed tasks as a named delivery (GET /v2/deliveries)",
      description:
        'Delivers the given completed tasks of the project (by name or v2 id), or by default its completed tasks ' +
        'no delivery holds yet; a tenant holds at most 1,000 deliveries, names unique.',
      body: DeliverBodySchema,
      response: V2DeliverySchema,
      errors: ['not_found', 'conflict'],
      handler: ({ tenant, body }) => deliver(tenant, services.ids, body),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/v2/schemas',
      tag,
      summary: 'Register a response JSON schema (GET /v2/schema)',
      description: 'Stores the schema under the given id (or a new one); deliveries may name it.',
      body: RegisterSchemaBodySchema,
      response: V2SchemaResultSchema,
      errors: ['conflict'],
      handler: ({ tenant, body }) => registerSchema(tenant, services.ids, body),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/v2/datasets',
      tag,
      summary: 'Make a dataset of deliveries of dataset tasks (GET /v2/datasets/...)',
      description:
        'Each dataset task has a response and attachments whose bytes are files uploaded with POST ' +
        '/v1/files/upload (GET /v2/datasets/task/{taskId}/response_url/{attachmentId} redirects to them).',
      body: CreateDatasetBodySchema,
      response: V2DatasetSchema.extend({ deliveries: z.array(V2DatasetDeliverySchema) }),
      errors: ['conflict'],
      handler: ({ tenant, body }) => createDataset(tenant, services.ids, body),
    }),
  ];
}
