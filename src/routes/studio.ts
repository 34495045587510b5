import {
  AddAssignmentsBodySchema,
  AssignmentsSchema,
  CreateGroupBodySchema,
  GroupParamsSchema,
  LabelerGroupListSchema,
  LabelerGroupSchema,
  ProjectParamsSchema,
  RemoveAssignmentsBodySchema,
  UpdateGroupBodySchema,
} from '../domain/studio/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { addAssignments, listAssignments, removeAssignments } from '../services/studio-assignments.js';
import { createGroup, listGroups, updateGroup } from '../services/studio-groups.js';

const tag = 'Studio';

/** Studio assignments and labeler groups. */
export function studioRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/studio/assignments',
      tag,
      summary: 'Active teammates (not invited or disabled) with their assigned Studio projects',
      description: 'Maps the e-mail of each active teammate to the names of the Studio projects assigned to them.',
      response: AssignmentsSchema,
      errors: [],
      handler: ({ tenant }) => listAssignments(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/assignments/add',
      tag,
      summary: 'Assign active teammates to Studio projects; answers the whole map',
      description: 'Assigns each listed teammate to each listed Studio project; answers the whole assignment map.',
      body: AddAssignmentsBodySchema,
      response: AssignmentsSchema,
      errors: ['not_found'],
      examples: () => ({ request: { emails: ['labeler@example.com'], projects: ['street-signs'] } }),
      handler: ({ tenant, body }) => addAssignments(tenant, body.emails, body.projects),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/assignments/remove',
      tag,
      summary:
        "Unassign teammates from projects (all of theirs without projects); they also leave those projects' groups",
      description:
        'Unassigns the listed teammates from the listed projects, or from all of theirs when `projects` is left ' +
        'out; answers the whole assignment map.',
      body: RemoveAssignmentsBodySchema,
      response: AssignmentsSchema,
      errors: ['not_found'],
      handler: ({ tenant, body }) => removeAssignments(tenant, body.emails, body.projects),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/studio/projects/{project}/groups',
      tag,
      summary: "List a Studio project's labeler groups",
      description: 'Answers the labeler groups of a Studio project with their members.',
      params: ProjectParamsSchema,
      response: LabelerGroupListSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => listGroups(tenant, params.project),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/studio/projects/{project}/groups',
      tag,
      summary: 'Create a labeler group of teammates assigned to the project',
      description:
        'Creates a named labeler group; its members must be teammates assigned to the project. Answers the group.',
      params: ProjectParamsSchema,
      body: CreateGroupBodySchema,
      response: LabelerGroupSchema,
      errors: ['not_found', 'conflict'],
      examples: () => ({ request: { name: 'night-shift', emails: ['labeler@example.com'] } }),
      handler: ({ tenant, params, body }) => createGroup(tenant, services.ids, params.project, body.name, body.emails),
    }),
    // The interface lists PUT, with POST as an alternative: both are served.
    ...(['put', 'post'] as const).map((method) =>
      defineRoute({
        method,
        path: '/v1/studio/projects/{project}/groups/{group}',
        tag,
        summary: `Add and remove members of a labeler group${method === 'post' ? ' (POST alternative to PUT)' : ''}`,
        description:
          'add_emails joins teammates assigned to the project to the group; remove_emails takes members out. ' +
          'Answers the group.',
        params: GroupParamsSchema,
        body: UpdateGroupBodySchema,
        response: LabelerGroupSchema,
        errors: ['not_found'],
        examples: () => ({ request: { add_emails: ['labeler@example.com'], remove_emails: [] } }),
        handler: ({ tenant, params, body }) =>
          updateGroup(tenant, params.project, params.group, body.add_emails, body.remove_emails),
      }),
    ),
  ];
}
