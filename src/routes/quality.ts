import { z } from 'zod';
import { TrainingAttemptListSchema } from '../domain/quality/schemas.js';
import { queryInt, queryList, queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { listTrainingAttempts } from '../services/quality.js';

const TrainingAttemptQuerySchema = z.object({
  quality_task_ids: queryList,
  labeler_emails: queryList,
  next_token: queryString,
  limit: queryInt(1, 100),
});

export function qualityRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/quality/labelers',
      tag: 'Quality',
      summary: 'Training attempts, newest first; give quality_task_ids, labeler_emails or both',
      description:
        'At least one of quality_task_ids and labeler_emails is required. ' +
        'Pages by limit (1-100, default 100) and next_token.',
      query: TrainingAttemptQuerySchema,
      response: TrainingAttemptListSchema,
      errors: [],
      examples: () => ({
        response: {
          docs: [
            {
              quality_task_id: '5c84d0fe958593004f13e5ba',
              labeler_email: 'labeler@example.com',
              created_at: '2026-01-01T00:00:00.000Z',
              score: 0.9,
              passed: true,
            },
          ],
          limit: 100,
          has_more: false,
          next_token: null,
        },
      }),
      handler: ({ tenant, query }) => listTrainingAttempts(tenant, query),
    }),
  ];
}
