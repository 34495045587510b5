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
      description:
        'Plays the invitees: each listed invited teammate takes the role they were invited with. Answers the ' +
        'team.',
      body: AcceptInvitationsBodySchema,
      response: TeamSchema,
      errors: ['not_found'],
      handler: ({ tenant, body }) => acceptInvitations(tenant, body.emails),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/quality/attempts',
      tag: 'Control',
      summary: 'Record training attempts, as labelers doing quality tasks would (created_at defaults to now)',
      description:
        "Records labelers' attempts at quality tasks, which GET /v1/quality/labelers lists; created_at defaults " +
        "to the tenant's clock.",
      body: RecordAttemptsBodySchema,
      response: RecordAttemptsResultSchema,
      errors: [],
      handler: ({ tenant, body }) => ({
        result: 'success' as const,
        recorded: body.attempts.length,
        total: recordTrainingAttempts(tenant, body.attempts),
      }),
    }),
  ];
}
