import { z } from 'zod';
import {
  QUALITY_TASK_TYPES,
  QualityTaskBodyDocSchema,
  type QualityTaskKind,
  QualityTaskSchema,
  QualityTaskTypeParamsSchema,
} from '../domain/quality/quality-tasks.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { createQualityTask } from '../services/quality-tasks.js';

const BodySchema = z.record(z.unknown());

const route = (services: Services, kind: QualityTaskKind) =>
  defineRoute({
    method: 'post',
    path: `/v1/${kind}_tasks/{type}`,
    tag: 'Quality',
    summary: `Create ${kind === 'evaluation' ? 'an evaluation' : 'a training'} task for a rapid project`,
    description:
      `The body is a creation request of the task type (${QUALITY_TASK_TYPES.join(', ')}) naming a rapid project, ` +
      "plus expected_response in the type's response shape" +
      (kind === 'evaluation' ? ' and optionally initial_response, what taskers start from' : '') +
      '. ' +
      'Both are checked against the task as a completion response would be. No labeling task is created.',
    params: QualityTaskTypeParamsSchema,
    // Validated after the project's defaults are merged in, as task creation is.
    body: BodySchema,
    bodyDoc: QualityTaskBodyDocSchema,
    response: QualityTaskSchema,
    errors: ['not_found'],
    handler: ({ tenant, params, body, c }) =>
      createQualityTask(services, tenant, kind, params.type, body, c.get('lenience')),
  });

export const qualityTaskRoutes = (services: Services): RouteSpec[] => [
  route(services, 'evaluation'),
  route(services, 'training'),
];
