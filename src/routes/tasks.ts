import { z } from 'zod';
import { ErrorResponseSchema } from '../domain/common/error-response.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { TaskListSchema, TaskSchema } from '../domain/tasks/task.js';
import { invalid } from '../errors.js';
import { optionalFixture } from '../fixtures.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { customerAudit } from '../services/audits.js';
import type { Services } from '../services/context.js';
import { DependentOptionsBodySchema, forceDependents, setDependentOptions } from '../services/dependents.js';
import { createFromRequest } from '../services/task-creation.js';
import { listTasks } from '../services/task-list.js';
import {
  cancelTask,
  changeTags,
  deleteUniqueId,
  requireTask,
  setMetadata,
  setUniqueId,
  taskAnswer,
} from '../services/tasks.js';
import {
  AuditBodySchema,
  CancelQuerySchema,
  SetMetadataBodySchema,
  TagsBodySchema,
  TaskIdParamsSchema,
  TaskListQuerySchema,
  UniqueIdBodySchema,
} from './task-schemas.js';

const TASK_ERRORS = ['unauthorized', 'not_found'] as const;

const CreateBodyObjectSchema = z.record(z.unknown());

export function taskCreateRoutes(services: Services): RouteSpec[] {
  const routes: RouteSpec[] = Object.values(TASK_TYPES).map((def) =>
    defineRoute({
      method: 'post',
      path: `/v1/task/${def.type}`,
      tag: 'Tasks',
      summary: def.summary,
      description: 'Creates a pending task. Honours the Idempotency-Key header and unique_id.',
      // Validated after the project's defaults are merged in: a required parameter may come from the project.
      body: CreateBodyObjectSchema,
      bodyDoc: def.createSchema,
      response: TaskSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found', 'conflict', 'too_many_requests'],
      idempotent: true,
      examples: () => ({
        request: optionalFixture(`tasks/${def.type}.create.json`),
        response: optionalFixture(`tasks/${def.type}.completed.json`),
      }),
      handler: ({ tenant, body }) => createFromRequest(services, tenant, def, body).created,
    }),
  );
  routes.push(
    defineRoute({
      method: 'post',
      path: '/v1/task/{type}',
      tag: 'Tasks',
      summary: 'Unknown task type',
      hidden: true,
      params: z.object({ type: z.string() }),
      response: ErrorResponseSchema,
      errors: ['invalid_request'],
      handler: ({ params }) => {
        throw invalid(
          `Task type "${params.type}" is not supported; supported types: ${Object.keys(TASK_TYPES).join(', ')}`,
        );
      },
    }),
  );
  return routes;
}

export function taskRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/task/{taskId}',
      tag: 'Tasks',
      summary: 'Retrieve a task',
      params: TaskIdParamsSchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params }) => taskAnswer(requireTask(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/tasks',
      tag: 'Tasks',
      summary: 'List tasks, newest first, paged by next_token',
      description:
        'Repeated keys carry lists (unique_id=a&unique_id=b); status, type and customer_review_status also take comma lists. ' +
        'Several values of one filter match any of them (tags too); different filters must all match.',
      query: TaskListQuerySchema,
      response: TaskListSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: ({ tenant, query }) => listTasks(tenant, query),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/cancel',
      tag: 'Tasks',
      summary: 'Cancel a pending task (again: 200; finished: 400)',
      params: TaskIdParamsSchema,
      query: CancelQuerySchema,
      response: TaskSchema,
      errors: ['invalid_request', ...TASK_ERRORS],
      handler: ({ tenant, params, query }) =>
        taskAnswer(cancelTask(tenant, params.taskId, query.clear_unique_id ?? false)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/setMetadata',
      tag: 'Tasks',
      summary: 'Replace the metadata of a task',
      params: TaskIdParamsSchema,
      body: SetMetadataBodySchema,
      // The body is the metadata itself: errors name it "metadata", and its `__proto__` keys are kept.
      bodyName: 'metadata',
      jsonLimits: { metadata: true },
      response: TaskSchema,
      errors: ['invalid_request', ...TASK_ERRORS],
      absentBody: () => ({}),
      handler: ({ tenant, params, body }) => taskAnswer(setMetadata(tenant, params.taskId, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/unique_id',
      tag: 'Tasks',
      summary: 'Set the unique_id of a task',
      params: TaskIdParamsSchema,
      body: UniqueIdBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', 'conflict', ...TASK_ERRORS],
      handler: ({ tenant, params, body }) => taskAnswer(setUniqueId(tenant, params.taskId, body.unique_id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/task/{taskId}/unique_id',
      tag: 'Tasks',
      summary: 'Remove the unique_id of a task',
      params: TaskIdParamsSchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params }) => taskAnswer(deleteUniqueId(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/dependents/options',
      tag: 'Tasks',
      summary:
        'Define dependent tasks, created when this (pending) task completes, or after its audit with require_audit',
      params: TaskIdParamsSchema,
      body: DependentOptionsBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', ...TASK_ERRORS],
      handler: ({ tenant, params, body }) => taskAnswer(setDependentOptions(tenant, params.taskId, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/dependents/force_creation',
      tag: 'Tasks',
      summary: 'Create the dependents of a finished task now, without waiting for the audit',
      params: TaskIdParamsSchema,
      response: TaskSchema,
      // Never 409 here: the Python client crashes on a 409 from a body-less task route.
      errors: ['invalid_request', ...TASK_ERRORS],
      handler: ({ tenant, params }) => taskAnswer(forceDependents(services, tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/audit',
      tag: 'Tasks',
      summary: 'Audit a completed task: accept or reject it, with optional comments',
      params: TaskIdParamsSchema,
      body: AuditBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', ...TASK_ERRORS],
      handler: ({ tenant, params, body }) =>
        taskAnswer(customerAudit(tenant, params.taskId, body.accepted, body.comments)),
    }),
    ...(['post', 'put', 'delete'] as const).map((method) =>
      defineRoute({
        method,
        path: '/v1/task/{taskId}/tags',
        tag: 'Tasks',
        summary: {
          post: 'Replace all tags',
          put: 'Add tags (present ones are ignored)',
          delete: 'Remove tags (absent ones are ignored)',
        }[method],
        params: TaskIdParamsSchema,
        body: TagsBodySchema,
        response: TaskSchema,
        errors: ['invalid_request', ...TASK_ERRORS],
        absentBody: () => [],
        handler: ({ tenant, params, body }) =>
          taskAnswer(
            changeTags(
              tenant,
              params.taskId,
              ({ post: 'replace', put: 'add', delete: 'remove' } as const)[method],
              body,
            ),
          ),
      }),
    ),
  ];
}
