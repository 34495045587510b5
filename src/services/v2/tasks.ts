import type { z } from 'zod';
import { JsonText } from '../../domain/common/json-text.js';
import { deepMergeMetadata, MetadataSchema } from '../../domain/common/metadata.js';
import { findTaskType } from '../../domain/tasks/registry.js';
import type {
  V2ChatTaskBodySchema,
  V2TaskListSchema,
  V2TaskMetadataBodySchema,
  V2TaskSchema,
} from '../../domain/v2/objects.js';
import { parseOrThrow } from '../../domain/validate.js';
import { selectorMissing, wrongState } from '../../errors/index.js';
import type { Tenant } from '../../store/tenant.js';
import { readTask } from '../completion.js';
import type { Services } from '../context.js';
import { encodeSeqToken } from '../seq-page.js';
import { createFromRequest } from '../task-creation.js';
import { listFilters, taskPage } from '../task-list.js';
import { requireTask, setMetadata } from '../tasks.js';
import {
  type BatchSelector,
  findBatchBy,
  findProjectBy,
  type ProjectSelector,
  requireUsableProjectBy,
} from './lookup.js';
import type { ThreadOption } from './threads.js';
import { type TaskExpand, taskPageJson, taskView, taskViewBytes } from './views.js';

export interface TaskShape {
  expand?: TaskExpand[] | undefined;
  opts?: ThreadOption[] | undefined;
}

type V2Task = z.output<typeof V2TaskSchema>;

/** `GET /v2/task`: without expand, the bytes the task's view keeps for its revision. */
export function getTaskV2(tenant: Tenant, taskId: string, shape: TaskShape) {
  const record = readTask(tenant, taskId);
  if (shape.expand?.length) return taskView(tenant, record, shape.expand, shape.opts);
  return new JsonText<V2Task>(taskViewBytes(tenant, record, shape.opts));
}

export interface TaskListQuery extends ProjectSelector, BatchSelector, TaskShape {
  status?: string | undefined;
  completed_after?: number | undefined;
  completed_before?: number | undefined;
  limit?: number | undefined;
  next_token?: string | undefined;
}

/** `GET /v2/tasks`: a project's or batch's tasks, newest first, paged by next_token (absent on the last page). */
export function listTasksV2(tenant: Tenant, query: TaskListQuery) {
  const project = findProjectBy(tenant, query);
  const batch = findBatchBy(tenant, query);
  if (!project && !batch) throw selectorMissing(['project_id', 'project_name', 'batch_id', 'batch_name']);
  const filter = {
    ...(project && { project: [project.project.name] }),
    ...(batch && { batch: [batch.batch.name] }),
    ...(query.status !== undefined && { status: [query.status] }),
    completed_after: query.completed_after,
    completed_before: query.completed_before,
    limit: query.limit ?? 100,
    next_token: query.next_token,
  };
  const { page, hasMore } = taskPage(tenant, filter, 'v2_tasks');
  const last = page[page.length - 1];
  const nextToken = hasMore && last ? encodeSeqToken('v2_tasks', { seq: last.seq }, listFilters(filter)) : undefined;
  if (!query.expand?.length) {
    return taskPageJson<z.output<typeof V2TaskListSchema>>(tenant, '{"tasks":[', page, query.opts, nextToken);
  }
  return {
    tasks: page.map((record) => taskView(tenant, record, query.expand, query.opts)),
    ...(nextToken !== undefined && { next_token: nextToken }),
  };
}

/**
 * `POST /v2/task/chat`: a task of the chat project's type, made through the same pipeline as
 * `POST /v1/task/{type}` (project and batch defaults, completion mode, events, callbacks).
 */
export function createChatTask(services: Services, tenant: Tenant, body: z.infer<typeof V2ChatTaskBodySchema>) {
  const batch = findBatchBy(tenant, body);
  const project =
    body.project_id !== undefined || body.project_name !== undefined
      ? requireUsableProjectBy(tenant, body)
      : batch
        ? requireUsableProjectBy(tenant, { project_name: batch.batch.project })
        : requireUsableProjectBy(tenant, {});
  const { type } = project.project;
  if (findTaskType(type)?.chat !== true) {
    throw wrongState(`Project "${project.project.name}"`, `has type ${type}`, `chat tasks need a project of type chat`);
  }
  const def = findTaskType(type);
  if (!def) throw wrongState(`Project "${project.project.name}"`, `has type ${type}`, 'no such task type');
  const { record } = createFromRequest(services, tenant, def, {
    project: project.project.name,
    ...(batch && { batch: batch.batch.name }),
    ...(body.template_variables !== undefined && { template_variables: body.template_variables }),
    ...(body.metadata !== undefined && { metadata: body.metadata }),
    ...(body.callback_url !== undefined && { callback_url: body.callback_url }),
    ...(body.unique_id !== undefined && { unique_id: body.unique_id }),
  });
  return taskView(tenant, tenant.tasks.get(record.task.task_id) ?? record);
}

export function setTaskMetadataV2(tenant: Tenant, body: z.infer<typeof V2TaskMetadataBodySchema>) {
  const current = requireTask(tenant, body.task_id).task.metadata;
  const metadata = body.merge
    ? parseOrThrow(MetadataSchema, deepMergeMetadata(current, body.metadata), 'metadata')
    : body.metadata;
  return taskView(tenant, setMetadata(tenant, body.task_id, metadata));
}
