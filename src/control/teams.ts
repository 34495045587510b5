import { z } from 'zod';
import { RecordAttemptsBodySchema } from '../domain/quality/schemas.js';
import { AcceptInvitationsBodySchema, TeamSchema } from '../domain/teams/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { recordTrainingAttempts } from '../services/quality.js';
import { acceptInvitations } from '../services/team.js';

const RecordAttemptsResultSchema = z.object({
  result: z.literal('success'),
  recorded: z.number().int(),
  total: z.number().int(),
});

/** Control routes that play the people behind the team: invitees accepting, labelers attempting quality tasks. */
export function teamControlRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/_mock/teams/accept',
      tag: 'Control',
      summary: 'Accept invitations: each invitee takes the role they were invited with',
      body: AcceptInvitationsBodySchema,
      response: TeamSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, body }) => acceptInvitations(tenant, body.emails),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/quality/attempts',
      tag: 'Control',
      summary: 'Record training attempts, as labelers doing quality tasks would (created_at defaults to now)',
      body: RecordAttemptsBodySchema,
      response: RecordAttemptsResultSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: ({ tenant, body }) => ({
        result: 'success' as const,
        recorded: body.attempts.length,
        total: recordTrainingAttempts(tenant, body.attempts),
      }),
    }),
  ];
}
