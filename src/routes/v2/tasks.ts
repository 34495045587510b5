import { AnnotationSchema } from '../../domain/v2/annotations.js';
import {
  V2ChatTaskBodySchema,
  V2TaskListSchema,
  V2TaskMetadataBodySchema,
  V2TaskSchema,
} from '../../domain/v2/objects.js';
import { notFound } from '../../errors/index.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Services } from '../../services/context.js';
import { createChatTask, getTaskV2, listTasksV2, setTaskMetadataV2 } from '../../services/v2/tasks.js';
import { findAnnotation } from '../../services/v2/threads.js';
import {
  batchSelector,
  completedRange,
  expandOf,
  opts,
  paging,
  projectSelector,
  requiredText,
  taskStatus,
  v2Query,
} from './query-fields.js';

const tag = 'Tasks';

export function v2TaskRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v2/task',
      tag,
      summary: 'Retrieve a task',
      description:
        'The task v1 shows, by the same id. threads are empty unless it is completed; expand embeds its project ' +
        'or batch, opts adds optional detail to the threads.',
      query: v2Query({ task_id: requiredText, expand: expandOf('project', 'batch'), opts }),
      response: V2TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => getTaskV2(tenant, query.task_id, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/tasks',
      tag,
      summary: "List a project's or batch's tasks, newest first, paged by next_token",
      description:
        'A project or a batch (by id or name) is required. Filters by status and completion time; the last ' +
        'page has no next_token.',
      query: v2Query({
        ...projectSelector,
        ...batchSelector,
        status: taskStatus,
        ...completedRange,
        ...paging,
        expand: expandOf('project', 'batch'),
        opts,
      }),
      response: V2TaskListSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => listTasksV2(tenant, query),
    }),
    // The Python client creates through /v2/task/chat; the v2 docs' task-create page shows POST /v2/task with the
    // same body (docs.genai.scale.com/v2/task-create). One creation pipeline serves both.
    ...(['/v2/task', '/v2/task/chat'] as const).map((path) =>
      defineRoute({
        method: 'post',
        path,
        tag,
        summary: path === '/v2/task' ? 'Create a task from template variables' : 'Create a chat task in a chat project',
        description:
          'Creates a pending task of the chat project (by id or name, or through a batch) from its template ' +
          'variables: the same task v1 lists, with the same life cycle, callbacks and Idempotency-Key' +
          (path === '/v2/task' ? ' (POST /v2/task/chat takes the same body).' : '.'),
        body: V2ChatTaskBodySchema,
        response: V2TaskSchema,
        errors: ['not_found'],
        idempotent: true,
        handler: ({ tenant, body }) => createChatTask(services, tenant, body),
      }),
    ),
    defineRoute({
      method: 'post',
      path: '/v2/task/metadata',
      tag,
      summary: "Set a task's metadata (merge: true merges, else replaces)",
      description: 'merge: true keeps the keys the body does not name; otherwise the metadata is replaced whole.',
      body: V2TaskMetadataBodySchema,
      response: V2TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, body }) => setTaskMetadataV2(tenant, body),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/annotation',
      tag: 'Annotations',
      summary: "Retrieve an annotation of a completed task's threads",
      description: 'Any annotation of a completed task, at any depth of its threads, by its id.',
      query: v2Query({ annotation_id: requiredText }),
      response: AnnotationSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => {
        const annotation = findAnnotation(tenant, query.annotation_id);
        if (!annotation) throw notFound('Annotation', query.annotation_id);
        return annotation;
      },
    }),
  ];
}
