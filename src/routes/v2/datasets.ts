import { z } from 'zod';
import {
  V2DatasetDeliveryListSchema,
  V2DatasetDeliveryTasksSchema,
  V2DatasetListSchema,
  V2DatasetTaskListSchema,
  V2DatasetTaskSchema,
} from '../../domain/v2/catalog.js';
import { queryString } from '../../http/query.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import {
  attachmentLocation,
  listDatasetDeliveries,
  listDatasets,
  listDatasetTasks,
  readDatasetDelivery,
  readDatasetTask,
} from '../../services/v2/datasets.js';
import { deliveredRange, expandOf, paging, requiredText, v2Query } from './query-fields.js';

const tag = 'Datasets';
const MADE_BY = ' The service has no route that makes datasets; POST /_mock/v2/datasets does.';
const datasetExpand = expandOf('dataset', 'delivery');

export function v2DatasetRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v2/datasets',
      tag,
      summary: 'List datasets, newest first',
      description: `Every dataset of the tenant.${MADE_BY}`,
      query: v2Query({}),
      response: V2DatasetListSchema,
      errors: [],
      handler: ({ tenant }) => listDatasets(tenant),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/datasets/deliveries',
      tag,
      summary: "List datasets' deliveries, newest first",
      description: `Of one dataset: dataset_id is required (the docs); filters by delivery time.${MADE_BY}`,
      query: v2Query({ dataset_id: requiredText, ...deliveredRange, expand: expandOf('dataset') }),
      response: V2DatasetDeliveryListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listDatasetDeliveries(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/datasets/delivery',
      tag,
      summary: 'A dataset delivery and a page of its tasks',
      description: `delivery_id is required.${MADE_BY}`,
      query: v2Query({ delivery_id: queryString, ...paging, expand: datasetExpand }),
      response: V2DatasetDeliveryTasksSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => readDatasetDelivery(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/datasets/tasks',
      tag,
      summary: 'List dataset tasks, paged by next_token',
      description: `dataset_id or delivery_id is required; filters by delivery time.${MADE_BY}`,
      query: v2Query({
        dataset_id: queryString,
        delivery_id: queryString,
        ...deliveredRange,
        ...paging,
        expand: datasetExpand,
      }),
      response: V2DatasetTaskListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listDatasetTasks(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/datasets/task',
      tag,
      summary: 'Retrieve a dataset task',
      description: `task_id is required.${MADE_BY}`,
      query: v2Query({ task_id: requiredText, expand: datasetExpand }),
      response: V2DatasetTaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => readDatasetTask(tenant, query.task_id, query.expand),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/datasets/task/{taskId}/response_url/{attachmentId}',
      tag,
      summary: "Redirect to a dataset task attachment's bytes",
      description:
        "A 302 to the attachment's bytes: the uploaded file it names, read with the same key " +
        '(GET /_mock/files/{fileId}/content).',
      params: z.object({ taskId: z.string(), attachmentId: z.string() }),
      response: z.undefined(),
      redirect: true,
      errors: ['not_found'],
      handler: ({ tenant, params, c }) =>
        c.redirect(attachmentLocation(tenant, params.taskId, params.attachmentId), 302),
    }),
  ];
}
