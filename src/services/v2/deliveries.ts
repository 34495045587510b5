import type { z } from 'zod';
import { JsonText, ownBytes } from '../../domain/common/json-text.js';
import type { DeliverBodySchema, V2DeliveredTasksSchema, V2DeliveryTasksSchema } from '../../domain/v2/catalog.js';
import { alreadyExists, invalidParameter, notFound, selectorMissing } from '../../errors/index.js';
import { toIso } from '../../runtime/clock.js';
import type { IdGenerator } from '../../runtime/ids.js';
import type { ProjectRecord } from '../../store/account.js';
import type { TaskRecord } from '../../store/task-collection.js';
import type { Tenant } from '../../store/tenant.js';
import type { DeliveryRecord } from '../../store/v2-catalog.js';
import { DEFAULT_PAGE_SIZE, filtersOf, pageStart, positionPage, takePage } from '../seq-page.js';
import { findProjectBy, type ProjectSelector, projectSelectorFor, requireProjectBy, withinRange } from './lookup.js';
import { RevisionCache } from './revision-cache.js';
import type { TaskShape } from './tasks.js';
import { threadsOf } from './threads.js';
import { projectView, taskPageJson, taskView } from './views.js';

/**
 * Deliveries: named sets of a project's completed tasks, as the service hands work back. The
 * control plane makes them (POST /_mock/v2/deliveries); /v2 reads them.
 */

/** Deliveries, schemas and datasets a tenant may hold, each: the catalog is test data, not a store. */
export const MAX_CATALOG_ENTRIES = 1000;

/** A delivery's tasks at most (the default takes the project's undelivered completed tasks, newest first). */
const MAX_DELIVERED_TASKS = 10_000;

function projectByNameOrId(tenant: Tenant, value: string, field: string): ProjectRecord {
  const selector = projectSelectorFor(tenant, value);
  const record =
    selector.project_id !== undefined
      ? tenant.shared.projectWithId(selector.project_id)
      : tenant.shared.projects.get(value);
  if (!record) throw notFound('Project', value);
  if (!tenant.owns(record)) {
    throw invalidParameter(field, `names project "${record.project.name}", made with a ${record.mode} key`);
  }
  return record;
}

function deliverable(tenant: Tenant, project: string, taskIds: string[] | undefined): TaskRecord[] {
  if (taskIds === undefined) {
    const found: TaskRecord[] = [];
    for (const seq of tenant.tasks.index('project').descending(project, Infinity)) {
      const record = tenant.tasks.atSeq(seq) as TaskRecord;
      if (record.task.status !== 'completed' || tenant.v2.deliveryOf(record.task.task_id)) continue;
      found.push(record);
      if (found.length === MAX_DELIVERED_TASKS) break;
    }
    if (found.length === 0)
      throw invalidParameter('task_ids', `(default) found no undelivered completed task of project "${project}"`);
    return found;
  }
  return taskIds.map((id, index) => {
    const record = tenant.tasks.get(id);
    const field = `task_ids[${index}]`;
    if (!record) throw notFound('Task', id);
    if (record.task.project !== project)
      throw invalidParameter(field, `names task ${id}, not a task of project "${project}"`);
    if (record.task.status !== 'completed')
      throw invalidParameter(field, `names task ${id}, which is ${record.task.status}, not completed`);
    return record;
  });
}

function deliveryView(tenant: Tenant, record: DeliveryRecord, expandProject = false) {
  const project = tenant.shared.projects.get(record.project);
  return {
    id: record.id,
    name: record.name,
    task_count: record.task_ids.length,
    delivered_at: record.delivered_at,
    project: project && expandProject ? projectView(project) : (project?.id ?? ''),
  };
}

export function deliver(tenant: Tenant, ids: IdGenerator, body: z.infer<typeof DeliverBodySchema>) {
  const catalog = tenant.v2;
  if (catalog.deliveries.size >= MAX_CATALOG_ENTRIES) {
    throw invalidParameter(
      'name',
      `would be delivery ${MAX_CATALOG_ENTRIES + 1}; a tenant holds at most ${MAX_CATALOG_ENTRIES}`,
    );
  }
  if ([...catalog.deliveries.values()].some((d) => d.name === body.name)) {
    throw alreadyExists('delivery', body.name, 'this tenant');
  }
  if (body.response_schema_id !== undefined && !catalog.schemas.has(body.response_schema_id)) {
    throw notFound('Schema', body.response_schema_id);
  }
  const project = projectByNameOrId(tenant, body.project, 'project');
  const tasks = deliverable(tenant, project.project.name, body.task_ids);
  const record: DeliveryRecord = {
    id: ids.next(),
    name: body.name,
    project: project.project.name,
    task_ids: [...new Set(tasks.map((t) => t.task.task_id))],
    delivered_at: toIso(tenant.stamp()),
    ...(body.response_schema_id !== undefined && { response_schema_id: body.response_schema_id }),
  };
  catalog.addDelivery(record);
  return deliveryView(tenant, record);
}

export interface DeliveryListQuery extends ProjectSelector {
  delivered_after?: number | undefined;
  delivered_before?: number | undefined;
  expand?: 'project'[] | undefined;
}

/** `GET /v2/deliveries`: a project's, newest first; the project is required (the docs). */
export function listDeliveries(tenant: Tenant, query: DeliveryListQuery) {
  const project = requireProjectBy(tenant, query);
  const deliveries = [...tenant.v2.deliveries.values()]
    .reverse()
    .filter(
      (d) =>
        d.project === project.project.name &&
        withinRange(d.delivered_at, query.delivered_after, query.delivered_before),
    )
    .map((d) => deliveryView(tenant, d, query.expand?.includes('project')));
  return { deliveries };
}

interface DeliverySelector extends ProjectSelector {
  delivery_id?: string | undefined;
  delivery_name?: string | undefined;
}

function findDelivery(tenant: Tenant, query: DeliverySelector): DeliveryRecord | undefined {
  const { delivery_id: id, delivery_name: name } = query;
  if (id !== undefined) {
    const record = tenant.v2.deliveries.get(id);
    if (!record || (name !== undefined && record.name !== name)) throw notFound('Delivery', id);
    return record;
  }
  if (name === undefined) return undefined;
  // Names are unique per project only: by name, the project is required (the docs).
  const project = requireProjectBy(tenant, query);
  const record = [...tenant.v2.deliveries.values()].find((d) => d.name === name && d.project === project.project.name);
  if (!record) throw notFound('Delivery', name);
  return record;
}

export interface DeliveryReadQuery extends DeliverySelector, Pick<TaskShape, 'opts'> {
  limit?: number | undefined;
  next_token?: string | undefined;
  expand?: ('project' | 'batch' | 'delivery')[] | undefined;
}

/** `GET /v2/delivery`: the delivery and a page of its tasks as they stand now. */
export function readDelivery(tenant: Tenant, query: DeliveryReadQuery) {
  const record = findDelivery(tenant, query);
  if (!record) throw selectorMissing(['delivery_id', 'delivery_name']);
  const { page, ...next } = positionPage(
    'v2_delivery',
    record.task_ids,
    query.limit,
    query.next_token,
    (id) => tenant.tasks.get(id),
    filtersOf(query),
  );
  const expand = query.expand ?? [];
  if (expand.length === 0) {
    const head = `{"delivery":${JSON.stringify(record.id)},"tasks":[`;
    return taskPageJson<z.output<typeof V2DeliveredTasksSchema>>(tenant, head, page, query.opts, next.next_token);
  }
  const taskExpand = expand.filter((e): e is 'project' | 'batch' => e !== 'delivery');
  return {
    delivery: expand.includes('delivery') ? deliveryView(tenant, record, expand.includes('project')) : record.id,
    tasks: page.map((task) => taskView(tenant, task, taskExpand, query.opts)),
    ...next,
  };
}

export interface DeliveryTasksQuery extends ProjectSelector {
  delivery_id?: string | undefined;
  status?: string | undefined;
  completed_after?: number | undefined;
  completed_before?: number | undefined;
  limit?: number | undefined;
  next_token?: string | undefined;
}

/**
 * `GET /v2/delivery/tasks` (the Python client's get_delivery_tasks): the tasks of a delivery, or every task of a
 * project that matches the filters, newest first. A delivered task carries its delivery and the delivered
 * response (its threads, as GET /v2/task shows them); one never delivered has null there ("tasks without
 * deliveries have null for delivery-related fields"). `total` counts the page, as the client's model says.
 * A project's page walks its index only as far as the page reaches.
 */
export function deliveryTasks(tenant: Tenant, query: DeliveryTasksQuery) {
  const project = findProjectBy(tenant, query);
  const one = query.delivery_id === undefined ? undefined : findDelivery(tenant, query);
  if (!one && !project) throw selectorMissing(['delivery_id', 'project_id', 'project_name']);
  if (one && project && one.project !== project.project.name) {
    throw invalidParameter(
      'delivery_id',
      `names a delivery of project "${one.project}", not "${project.project.name}"`,
    );
  }
  const matches = (record: TaskRecord) =>
    (query.status === undefined || record.task.status === query.status) &&
    withinRange(record.task.completed_at, query.completed_after, query.completed_before);
  const { page, next } = one
    ? deliveredPage(tenant, one, query, matches)
    : projectPage(tenant, project?.project.name ?? '', query, matches);
  const token = next ? `,"next_token":${JSON.stringify(next)}` : '';
  const docs = page.map((record) => deliveredTaskBytes(tenant, record));
  return JsonText.array<z.output<typeof V2DeliveryTasksSchema>>('{"docs":[', docs, `],"total":${docs.length}${token}}`);
}

type Matches = (record: TaskRecord) => boolean;

/** A delivery's tasks by position in it: the token jumps to where the page starts. */
function deliveredPage(tenant: Tenant, delivery: DeliveryRecord, query: DeliveryTasksQuery, matches: Matches) {
  const { page, next_token } = positionPage(
    'v2_delivery_tasks',
    delivery.task_ids,
    query.limit,
    query.next_token,
    (id) => {
      const record = tenant.tasks.get(id);
      return record && matches(record) ? record : undefined;
    },
    filtersOf(query),
  );
  return { page, next: next_token };
}

/** A project's tasks down its index from the token's seq, as v1's lists page. */
function projectPage(tenant: Tenant, project: string, query: DeliveryTasksQuery, matches: Matches) {
  const list = 'v2_project_delivery_tasks';
  const from = pageStart(list, query.next_token, Infinity, 'next_token', filtersOf(query));
  const seqs = tenant.tasks.index('project').descending(project, from);
  const { records, next } = takePage(
    list,
    seqs,
    query.limit ?? DEFAULT_PAGE_SIZE,
    (seq) => tenant.tasks.atSeq(seq),
    matches,
    filtersOf(query),
  );
  return { page: records, next };
}

/**
 * A task's doc of GET /v2/delivery/tasks as JSON bytes, kept per revision and delivery (a newer delivery of the
 * task makes a new one): what a page costs is joining them.
 */
const deliveredBytes = new RevisionCache<Uint8Array>();

function deliveredTaskBytes(tenant: Tenant, record: TaskRecord): Uint8Array {
  const delivery = tenant.v2.deliveryOf(record.task.task_id);
  return deliveredBytes.get(record.task, [delivery, record.internal.threads], '', () =>
    ownBytes(JSON.stringify(deliveredTaskDoc(record, delivery))),
  );
}

function deliveredTaskDoc(record: TaskRecord, delivery: DeliveryRecord | undefined) {
  const { task } = record;
  return {
    task_id: task.task_id,
    created_at: task.created_at,
    delivery_id: delivery?.id ?? null,
    delivered_at: delivery?.delivered_at ?? null,
    response_schema_id: delivery?.response_schema_id ?? null,
    response: delivery ? { threads: threadsOf(record, []) } : null,
  };
}
