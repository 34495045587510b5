import { z } from 'zod';
import { ErrorResponseSchema } from '../domain/common/error-response.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { TaskListSchema, TaskSchema } from '../domain/tasks/task.js';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';
import { unsupportedType } from '../errors/index.js';
import { optionalFixture } from '../fixtures.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { pendingTaskExample } from '../openapi/examples.js';
import { customerAudit } from '../services/audits.js';
import { readTask } from '../services/completion.js';
import type { Services } from '../services/context.js';
import { DependentOptionsBodySchema, forceDependents, setDependentOptions } from '../services/dependents.js';
import { cancelTask } from '../services/task-cancel.js';
import { createFromRequest } from '../services/task-creation.js';
import { listTasks } from '../services/task-list.js';
import { changeTags, deleteUniqueId, setMetadata, setUniqueId, taskAnswer } from '../services/tasks.js';
import {
  AuditBodySchema,
  CancelQuerySchema,
  SetMetadataBodySchema,
  TagsBodySchema,
  TaskIdParamsSchema,
  TaskListQuerySchema,
  UniqueIdBodySchema,
} from './task-schemas.js';

const TASK_ERRORS = ['not_found'] as const;

const CreateBodyObjectSchema = z.record(z.unknown());

/**
 * Paths older clients create a type under (Python client 0.1.x, both Ruby clients, the real service's 2016
 * recording: wikiti/scaleapi-ruby@aece53c, `POST /v1/task/categorize`). Served like the type's own path and
 * documented as deprecated: a generated client should use the current one.
 */
const LEGACY_CREATE_PATHS: readonly { path: string; type: string }[] = [{ path: 'categorize', type: 'categorization' }];

export function taskCreateRoutes(services: Services): RouteSpec[] {
  const creation = (def: TaskTypeDefinition, path: string, legacy: boolean) =>
    defineRoute({
      method: 'post',
      path: `/v1/task/${path}`,
      tag: 'Tasks',
      ...(legacy && { deprecated: true }),
      summary: legacy ? `${def.summary}, at the path of older clients` : def.summary,
      description:
        'Creates a pending task. Honours the Idempotency-Key header and unique_id.' +
        (legacy ? ` The same as POST /v1/task/${def.type}, which new code should call.` : ''),
      // Validated after the project's defaults are merged in: a required parameter may come from the project.
      body: CreateBodyObjectSchema,
      bodyDoc: def.createSchema,
      response: TaskSchema,
      responseComponent: `${def.schemaName}Task`,
      errors: ['not_found', 'conflict'],
      idempotent: true,
      examples: () => ({
        request: optionalFixture(`tasks/${def.type}.create.json`),
        // Creation answers the task pending: completion comes later.
        response: pendingTaskExample(def.type),
      }),
      handler: ({ tenant, body, c }) => createFromRequest(services, tenant, def, body, c.get('lenience')).created,
    });
  const routes: RouteSpec[] = Object.values(TASK_TYPES).map((def) => creation(def, def.type, false));
  for (const { path, type } of LEGACY_CREATE_PATHS) {
    const def = TASK_TYPES[type];
    if (def) routes.push(creation(def, path, true));
  }
  routes.push(
    defineRoute({
      method: 'post',
      path: '/v1/task/{type}',
      tag: 'Tasks',
      summary: 'Unknown task type',
      hidden: true,
      params: z.object({ type: z.string() }),
      response: ErrorResponseSchema,
      errors: [],
      handler: ({ params }) => {
        throw unsupportedType('Task type', params.type, Object.keys(TASK_TYPES));
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
      description:
        "Answers a task of the caller's account and mode (any other task id is a 404). A completed task carries " +
        '`response`, whose shape its `type` tells.',
      params: TaskIdParamsSchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params }) => taskAnswer(readTask(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/tasks',
      tag: 'Tasks',
      summary: 'List tasks, newest first, paged by next_token',
      description:
        'Repeated keys carry lists (unique_id=a&unique_id=b); ' +
        'status, type and customer_review_status also take comma lists. ' +
        'Several values of one filter match any of them (tags too); different filters must all match.',
      query: TaskListQuerySchema,
      response: TaskListSchema,
      errors: [],
      handler: ({ tenant, query }) => listTasks(tenant, query, services.pages),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/cancel',
      tag: 'Tasks',
      summary: 'Cancel a pending task (again: 200; finished: 400)',
      description:
        'Cancels a pending task. Canceling a canceled task answers it again; a completed or failed task is a 400. ' +
        "With clear_unique_id=true, the task's unique_id is removed so another task can use it.",
      params: TaskIdParamsSchema,
      query: CancelQuerySchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params, query }) =>
        taskAnswer(cancelTask(tenant, params.taskId, query.clear_unique_id ?? false)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/setMetadata',
      tag: 'Tasks',
      summary: 'Replace the metadata of a task',
      description:
        'The body is the new metadata object (at most 10 KB as JSON), which replaces the old one whole; no body ' +
        'at all means {}.',
      params: TaskIdParamsSchema,
      body: SetMetadataBodySchema,
      // The body is the metadata itself: errors name it "metadata", and its `__proto__` keys are kept.
      bodyName: 'metadata',
      jsonLimits: { metadata: true },
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      absentBody: () => ({}),
      handler: ({ tenant, params, body }) => taskAnswer(setMetadata(tenant, params.taskId, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/unique_id',
      tag: 'Tasks',
      summary: 'Set the unique_id of a task',
      description:
        "Sets or replaces the task's unique_id. One that another task of the same account and mode holds is a " +
        '409.',
      params: TaskIdParamsSchema,
      body: UniqueIdBodySchema,
      response: TaskSchema,
      errors: ['conflict', ...TASK_ERRORS],
      handler: ({ tenant, params, body }) => taskAnswer(setUniqueId(tenant, params.taskId, body.unique_id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/task/{taskId}/unique_id',
      tag: 'Tasks',
      summary: 'Remove the unique_id of a task',
      description: "Removes the task's unique_id, which frees it for another task.",
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
      description:
        "Stores definitions of dependent tasks (a type and its parameters; the data item is the root's) on a " +
        'pending task. They are created when it completes, or after its audit when require_audit is true.',
      params: TaskIdParamsSchema,
      body: DependentOptionsBodySchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params, body, c }) =>
        taskAnswer(setDependentOptions(tenant, params.taskId, body, c.get('lenience'))),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/dependents/force_creation',
      tag: 'Tasks',
      summary: 'Create the dependents of a finished task now, without waiting for the audit',
      description:
        'Creates the dependents a finished task defines now, without waiting for its audit; the answer lists ' +
        'their ids in `dependents`. A task still pending is a 400.',
      params: TaskIdParamsSchema,
      response: TaskSchema,
      // Never 409 here: the Python client crashes on a 409 from a body-less task route.
      errors: [...TASK_ERRORS],
      handler: ({ tenant, params }) => taskAnswer(forceDependents(services, tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/task/{taskId}/audit',
      tag: 'Tasks',
      summary: 'Audit a completed task: accept or reject it, with optional comments',
      description:
        "The customer's review of a completed task: accepted true or false, with optional comments. It sets " +
        'customer_review_status and adds an entry to `audits`.',
      params: TaskIdParamsSchema,
      body: AuditBodySchema,
      response: TaskSchema,
      errors: [...TASK_ERRORS],
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
        description:
          'The body is an array of tags (non-empty strings); a task keeps at most 5. ' +
          'No body at all means an empty array. Answers the task.',
        params: TaskIdParamsSchema,
        body: TagsBodySchema,
        response: TaskSchema,
        errors: [...TASK_ERRORS],
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
