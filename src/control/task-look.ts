import { z } from 'zod';
import { TaskTimelineSchema } from '../domain/control/timeline.js';
import { TaskSchema } from '../domain/tasks/task.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { taskTimeline } from '../services/task-timeline.js';
import { requireTask, taskAnswer } from '../services/tasks.js';

const TaskIdParams = z.object({ taskId: z.string() });

/**
 * Looks at one task that change nothing: unlike GET /v1/task/{id}, neither is journaled, rate limited or
 * faulted, nor counts as a client's read for completion mode `reads`. The inspector's task page reads these,
 * so watching a task never moves it on, nor fills the journal with its own reads.
 */
export function taskLookRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/tasks/{taskId}',
      tag: 'Control',
      summary: 'Read a task without touching it: not journaled, not a read for completion mode `reads`',
      description:
        'The task exactly as GET /v1/task/{taskId} answers it, but a look from the side: the request journal ' +
        'does not keep it, rate limits and fault rules do not apply, and in completion mode `reads` it does not ' +
        'count as a read.',
      params: TaskIdParams,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => taskAnswer(requireTask(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/tasks/{taskId}/timeline',
      tag: 'Control',
      summary: 'What happened to a task, in order: changes, audits, callback attempts and the requests that touched it',
      description:
        "The task's creation, each completion, redo, error and cancel, its audits, every callback of it (journaled, " +
        'then each attempt: status, duration, and the retry scheduled after it) and the requests of the journal ' +
        "that touched it (the latest 100), oldest first, on the tenant's virtual clock. Changes are kept in memory: " +
        'a task restored from --data-dir or imported starts from what its fields tell (`rebuilt`).',
      params: TaskIdParams,
      response: TaskTimelineSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => taskTimeline(tenant, params.taskId),
    }),
  ];
}
