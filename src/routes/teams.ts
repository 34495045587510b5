import { InviteBodySchema, SetRoleBodySchema, TeamSchema } from '../domain/teams/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { inviteTeammates, listTeam, setTeamRoles } from '../services/team.js';

const teamExample = () => ({
  response: [
    {
      email: 'acme@labelmock.test',
      role: 'admin',
      firstName: 'Account',
      lastName: 'Owner',
      company: 'acme',
      isStudioLabeler: false,
      disableRapidEmails: false,
    },
    {
      email: 'labeler@example.com',
      role: 'invited',
      isStudioLabeler: true,
      disableRapidEmails: false,
      expiry: '2026-01-08T00:00:00.000Z',
    },
  ],
});

export function teamRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/teams',
      tag: 'Teams',
      summary: 'List the teammates, the account owner (admin) first',
      description:
        'Answers every teammate with their role; an invitation not yet accepted shows role invited and its ' +
        'expiry.',
      response: TeamSchema,
      errors: [],
      examples: teamExample,
      handler: ({ tenant }) => listTeam(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/teams/invite',
      tag: 'Teams',
      summary: 'Invite teammates: they join with role invited and an expiry (labeler needs a Studio project)',
      description:
        'Invites e-mail addresses with a role (labeler, member or manager). They stay invited until they accept, ' +
        'which POST /_mock/teams/accept plays in the mock. Answers the whole team.',
      body: InviteBodySchema,
      response: TeamSchema,
      errors: [],
      examples: () => ({
        request: { emails: ['labeler@example.com'], team_role: 'labeler' },
        response: teamExample().response,
      }),
      handler: ({ tenant, body }) => inviteTeammates(tenant, services.ids, body.emails, body.team_role),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/teams/set_role',
      tag: 'Teams',
      summary: "Change non-administrators' roles (disabled takes them off Studio work)",
      description:
        "Sets the role of teammates who accepted their invitation; the administrator's role does not change. " +
        'Answers the whole team.',
      body: SetRoleBodySchema,
      response: TeamSchema,
      errors: ['not_found'],
      examples: () => ({ request: { emails: ['labeler@example.com'], team_role: 'manager' } }),
      handler: ({ tenant, body }) => setTeamRoles(tenant, body.emails, body.team_role),
    }),
  ];
}
