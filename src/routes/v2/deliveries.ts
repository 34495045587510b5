import { z } from 'zod';
import { ObjectIdTextSchema } from '../../domain/common/values.js';
import {
  V2DeliveredTasksSchema,
  V2DeliveryListSchema,
  V2DeliveryTasksSchema,
  V2SchemaResultSchema,
} from '../../domain/v2/catalog.js';
import { last, queryString } from '../../http/query.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import { readSchema } from '../../services/v2/datasets.js';
import { deliveryTasks, listDeliveries, readDelivery } from '../../services/v2/deliveries.js';
import {
  completedRange,
  deliveredRange,
  expandOf,
  opts,
  paging,
  projectSelector,
  taskStatus,
  v2Query,
} from './query-fields.js';

const tag = 'Deliveries';
const MADE_BY = ' The service has no route that makes deliveries; POST /_mock/v2/deliveries does.';

export function v2DeliveryRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v2/deliveries',
      tag,
      summary: 'List deliveries, newest first',
      description: `Filters by project (id or name) and delivery time.${MADE_BY}`,
      query: v2Query({ ...projectSelector, ...deliveredRange, expand: expandOf('project') }),
      response: V2DeliveryListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listDeliveries(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/delivery',
      tag,
      summary: 'A delivery and a page of its tasks',
      description:
        'delivery_id, or delivery_name (with the project when names repeat across projects), names the delivery; ' +
        `its tasks are shown as they stand now.${MADE_BY}`,
      query: v2Query({
        delivery_id: queryString,
        delivery_name: queryString,
        ...projectSelector,
        ...paging,
        expand: expandOf('project', 'batch', 'delivery'),
        opts,
      }),
      response: V2DeliveredTasksSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => readDelivery(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/delivery/tasks',
      tag,
      summary: "Delivered tasks' responses, of a delivery or of a project's deliveries",
      description: `delivery_id or a project is required; filters by status and completion time.${MADE_BY}`,
      query: v2Query({
        delivery_id: queryString,
        ...projectSelector,
        status: taskStatus,
        ...completedRange,
        ...paging,
      }),
      response: V2DeliveryTasksSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => deliveryTasks(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/schema',
      tag,
      summary: "A delivery's response JSON schema",
      description:
        'A schema registered with POST /_mock/v2/schemas; schema_id is required, and an ObjectId (a malformed one ' +
        'is a 400, as the docs say).',
      query: v2Query({ schema_id: z.preprocess(last, ObjectIdTextSchema) }),
      response: V2SchemaResultSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => readSchema(tenant, query.schema_id),
    }),
  ];
}
