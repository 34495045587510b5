import { V2ProjectListSchema, V2ProjectSchema } from '../../domain/v2/objects.js';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import { getProjectV2, listProjectsV2 } from '../../services/v2/projects.js';
import { createdRange, projectSelector, v2Query } from './query-fields.js';

export function v2ProjectRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v2/projects',
      tag: 'Projects',
      summary: "List the account's projects",
      description:
        'Every project of the account (v1 and v2 share them), oldest first; created_after and ' +
        'created_before narrow by creation time.',
      query: v2Query(createdRange),
      response: V2ProjectListSchema,
      errors: [],
      handler: ({ tenant, query }) => listProjectsV2(tenant, query),
    }),
    defineRoute({
      method: 'get',
      path: '/v2/project',
      tag: 'Projects',
      summary: 'Retrieve a project by id or name',
      description: 'project_id or project_name names the project (both may be given when they agree).',
      query: v2Query(projectSelector),
      response: V2ProjectSchema,
      errors: ['not_found'],
      handler: ({ tenant, query }) => getProjectV2(tenant, query),
    }),
  ];
}
