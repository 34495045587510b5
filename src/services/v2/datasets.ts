import type { z } from 'zod';
import type { CreateDatasetBody, RegisterSchemaBodySchema } from '../../domain/v2/catalog.js';
import { alreadyExists, invalidParameter, notFound, selectorMissing } from '../../errors/index.js';
import { toIso } from '../../runtime/clock.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { Tenant } from '../../store/tenant.js';
import type {
  DatasetDeliveryRecord,
  DatasetRecord,
  DatasetTaskPlace,
  ResponseSchemaRecord,
} from '../../store/v2-catalog.js';
import { DEFAULT_PAGE_SIZE, decodePositionToken, encodePositionToken, filtersOf, positionPage } from '../seq-page.js';
import { MAX_CATALOG_ENTRIES } from './deliveries.js';
import { withinRange } from './lookup.js';

/**
 * Datasets: deliveries of dataset tasks (a response, and attachments whose bytes are uploaded files),
 * and response schemas. The control plane makes them (POST /_mock/v2/datasets, /_mock/v2/schemas).
 */

function assertRoom(size: number, what: string, field: string): void {
  if (size >= MAX_CATALOG_ENTRIES) {
    throw invalidParameter(
      field,
      `would be ${what} ${MAX_CATALOG_ENTRIES + 1}; a tenant holds at most ${MAX_CATALOG_ENTRIES}`,
    );
  }
}

export function registerSchema(tenant: Tenant, ids: IdGenerator, body: z.infer<typeof RegisterSchemaBodySchema>) {
  assertRoom(tenant.v2.schemas.size, 'schema', 'json');
  const id = body.id ?? ids.next();
  if (tenant.v2.schemas.has(id)) throw alreadyExists('schema', id, 'this tenant');
  const record: ResponseSchemaRecord = {
    id,
    json: JSON.stringify(body.json),
    name: body.name ?? `Schema ${id}`,
    created_by: tenant.account,
    created_at: toIso(tenant.stamp()),
  };
  tenant.v2.addSchema(record);
  return { schema: schemaView(tenant, record) };
}

/** When a schema imported from an export made before schemas kept their registration time was registered. */
const UNKNOWN_TIME = '1970-01-01T00:00:00.000Z';

/**
 * The docs' schema object: a name and camelCase audit fields. A schema is never changed, so it was last updated
 * when it was made; one imported without them is named after its id, made by the tenant's account.
 */
function schemaView(tenant: Tenant, { id, json, name, created_by, created_at }: ResponseSchemaRecord) {
  const by = created_by ?? tenant.account;
  const at = created_at ?? UNKNOWN_TIME;
  return { id, json, name: name ?? `Schema ${id}`, createdBy: by, createdAt: at, updatedBy: by, updatedAt: at };
}

export function readSchema(tenant: Tenant, schemaId: string) {
  const record = tenant.v2.schemas.get(schemaId);
  if (!record) throw notFound('Schema', schemaId);
  return { schema: schemaView(tenant, record) };
}

/** Turns per delivery, counted once: a delivery is never changed once added, and a list shows up to 1,000. */
const turnCounts = new WeakMap<DatasetDeliveryRecord, number>();

function turnCount(delivery: DatasetDeliveryRecord): number {
  let count = turnCounts.get(delivery);
  if (count === undefined) {
    count = delivery.tasks.reduce(
      (n, task) => n + (Array.isArray(task.response.turns) ? task.response.turns.length : 0),
      0,
    );
    turnCounts.set(delivery, count);
  }
  return count;
}

const datasetView = ({ id, name }: DatasetRecord) => ({ id, name });

function datasetDeliveryView(dataset: DatasetRecord, delivery: DatasetDeliveryRecord, expandDataset: boolean) {
  return {
    id: delivery.id,
    name: delivery.name,
    delivered_at: delivery.delivered_at,
    dataset: expandDataset ? datasetView(dataset) : dataset.id,
    metadata: { task_count: delivery.tasks.length, turn_count: turnCount(delivery) },
  };
}

type DatasetExpand = ('dataset' | 'delivery')[] | undefined;

function datasetTaskView({ dataset, delivery, task }: DatasetTaskPlace, expand: DatasetExpand) {
  const on = new Set(expand ?? []);
  return {
    task_id: task.task_id,
    dataset: on.has('dataset') ? datasetView(dataset) : dataset.id,
    delivery: on.has('delivery') ? datasetDeliveryView(dataset, delivery, on.has('dataset')) : delivery.id,
    response: task.response,
  };
}

/** Checks the whole body before anything is stored: ids unused, files present. */
export function createDataset(tenant: Tenant, ids: IdGenerator, body: CreateDatasetBody) {
  const catalog = tenant.v2;
  assertRoom(catalog.datasets.size, 'dataset', 'name');
  if ([...catalog.datasets.values()].some((d) => d.name === body.name))
    throw alreadyExists('dataset', body.name, 'this tenant');
  const seen = new Set<string>();
  const stamp = toIso(tenant.stamp());
  const deliveries = body.deliveries.map((delivery, d) => ({
    id: ids.next(),
    name: delivery.name,
    delivered_at: stamp,
    tasks: delivery.tasks.map((task, t) => {
      const field = `deliveries[${d}].tasks[${t}]`;
      const taskId = task.task_id ?? ids.next();
      if (seen.has(taskId) || catalog.datasetTask(taskId)) {
        throw invalidParameter(`${field}.task_id`, `repeats dataset task ${taskId}`);
      }
      seen.add(taskId);
      task.attachments?.forEach((attachment, a) => {
        if (!tenant.files.get(attachment.file_id)) {
          throw invalidParameter(
            `${field}.attachments[${a}].file_id`,
            `names no file of this tenant ("${attachment.file_id}")`,
          );
        }
      });
      return { task_id: taskId, response: task.response, ...(task.attachments && { attachments: task.attachments }) };
    }),
  }));
  const dataset: DatasetRecord = { id: ids.next(), name: body.name, deliveries };
  catalog.addDataset(dataset);
  return {
    ...datasetView(dataset),
    deliveries: deliveries.map((delivery) => datasetDeliveryView(dataset, delivery, false)),
  };
}

export const listDatasets = (tenant: Tenant) => ({
  datasets: [...tenant.v2.datasets.values()].reverse().map(datasetView),
});

function requireDataset(tenant: Tenant, id: string): DatasetRecord {
  const dataset = tenant.v2.datasets.get(id);
  if (!dataset) throw notFound('Dataset', id);
  return dataset;
}

interface DeliveredRange {
  delivered_after?: number | undefined;
  delivered_before?: number | undefined;
}

/** Every delivery of the tenant's datasets (or of one), newest first. */
function deliveriesOf(tenant: Tenant, datasetId: string | undefined, range: DeliveredRange) {
  const datasets =
    datasetId === undefined ? [...tenant.v2.datasets.values()].reverse() : [requireDataset(tenant, datasetId)];
  return datasets.flatMap((dataset) =>
    [...dataset.deliveries]
      .reverse()
      .filter((delivery) => withinRange(delivery.delivered_at, range.delivered_after, range.delivered_before))
      .map((delivery) => ({ dataset, delivery })),
  );
}

export function listDatasetDeliveries(
  tenant: Tenant,
  query: DeliveredRange & { dataset_id: string; expand?: 'dataset'[] | undefined },
) {
  const expand = query.expand?.includes('dataset') ?? false;
  return {
    deliveries: deliveriesOf(tenant, query.dataset_id, query).map(({ dataset, delivery }) =>
      datasetDeliveryView(dataset, delivery, expand),
    ),
  };
}

interface PageQuery {
  limit?: number | undefined;
  next_token?: string | undefined;
  expand?: DatasetExpand;
}

export function readDatasetDelivery(tenant: Tenant, query: PageQuery & { delivery_id?: string | undefined }) {
  if (query.delivery_id === undefined) throw selectorMissing(['delivery_id']);
  const place = tenant.v2.datasetDelivery(query.delivery_id);
  if (!place) throw notFound('Delivery', query.delivery_id);
  const { page, ...next } = positionPage(
    'v2_dataset_delivery',
    place.delivery.tasks,
    query.limit,
    query.next_token,
    undefined,
    filtersOf(query),
  );
  const on = new Set(query.expand ?? []);
  return {
    delivery: on.has('delivery')
      ? datasetDeliveryView(place.dataset, place.delivery, on.has('dataset'))
      : place.delivery.id,
    tasks: page.map((task) => datasetTaskView({ ...place, task }, query.expand)),
    ...next,
  };
}

export function listDatasetTasks(
  tenant: Tenant,
  query: PageQuery & DeliveredRange & { dataset_id?: string | undefined; delivery_id?: string | undefined },
) {
  if (query.dataset_id === undefined && query.delivery_id === undefined) {
    throw selectorMissing(['dataset_id', 'delivery_id']);
  }
  let places = deliveriesOf(tenant, query.dataset_id, query);
  if (query.delivery_id !== undefined) {
    if (!tenant.v2.datasetDelivery(query.delivery_id)) throw notFound('Delivery', query.delivery_id);
    places = places.filter(({ delivery }) => delivery.id === query.delivery_id);
  }
  return datasetTaskPage(places, query);
}

/**
 * A page of the places' tasks, by position across them: whole deliveries before the token's position are
 * stepped over by their sizes, so a page costs the deliveries plus what it holds, never every task.
 */
function datasetTaskPage(places: { dataset: DatasetRecord; delivery: DatasetDeliveryRecord }[], query: PageQuery) {
  const list = 'v2_dataset_tasks';
  const filters = filtersOf(query);
  const start = query.next_token === undefined ? 0 : decodePositionToken(query.next_token, 'next_token', list, filters);
  const size = query.limit ?? DEFAULT_PAGE_SIZE;
  const tasks: ReturnType<typeof datasetTaskView>[] = [];
  let at = 0;
  for (const { dataset, delivery } of places) {
    if (at + delivery.tasks.length <= start) {
      at += delivery.tasks.length;
      continue;
    }
    for (let i = Math.max(0, start - at); i < delivery.tasks.length; i++) {
      if (tasks.length === size) return { tasks, next_token: encodePositionToken(list, at + i, filters) };
      tasks.push(
        datasetTaskView({ dataset, delivery, task: delivery.tasks[i] as DatasetTaskPlace['task'] }, query.expand),
      );
    }
    at += delivery.tasks.length;
  }
  return { tasks };
}

function requireDatasetTask(tenant: Tenant, taskId: string): DatasetTaskPlace {
  const place = tenant.v2.datasetTask(taskId);
  if (!place) throw notFound('Dataset task', taskId);
  return place;
}

export const readDatasetTask = (tenant: Tenant, taskId: string, expand: DatasetExpand) =>
  datasetTaskView(requireDatasetTask(tenant, taskId), expand);

/** Where an attachment's bytes are: the uploaded file's content route (the same key reads it). */
export function attachmentLocation(tenant: Tenant, taskId: string, attachmentId: string): string {
  const { task } = requireDatasetTask(tenant, taskId);
  const attachment = task.attachments?.find((a) => a.id === attachmentId);
  if (!attachment) throw notFound('Attachment', attachmentId, `dataset task ${taskId}`);
  return `/_mock/files/${encodeURIComponent(attachment.file_id)}/content`;
}
