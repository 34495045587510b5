import { z } from 'zod';
import {
  CreateProjectBodySchema,
  ExtendedProjectSchema,
  PipelineConfigBodySchema,
  ProjectListSchema,
  ProjectNameParamsSchema,
  ProjectSchema,
  SetOntologyBodySchema,
  SetParamsBodySchema,
} from '../domain/projects/schemas.js';
import { TaskTemplateSchema } from '../domain/quality/quality-tasks.js';
import { parseOrThrow } from '../domain/validate.js';
import { invalid } from '../errors.js';
import { queryBoolean } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import {
  createProject,
  extendedProject,
  listProjects,
  requireProject,
  setOntology,
  setProjectParams,
  updatePipelineConfig,
} from '../services/projects.js';
import { taskTemplate } from '../services/task-templates.js';

const ListQuerySchema = z.object({ archived: queryBoolean });
/** The list's alternative POST shares its path with create: a body with only `archived` (or none) lists. */
const ListOrCreateBodySchema = z.record(z.unknown()).optional();
const isListRequest = (body: Record<string, unknown> | undefined) =>
  !body || Object.keys(body).every((key) => key === 'archived');

const retrieve = (method: 'get' | 'post') =>
  defineRoute({
    method,
    path: '/v1/projects/{name}',
    tag: 'Projects',
    summary: method === 'get' ? 'Retrieve a project' : 'Retrieve a project (alternative method)',
    params: ProjectNameParamsSchema,
    response: ProjectSchema,
    errors: ['unauthorized', 'not_found'],
    handler: ({ tenant, params }) => requireProject(tenant, params.name).project,
  });

const pipelineRoute = (path: string, nameFrom: 'path' | 'body') =>
  defineRoute({
    method: 'post',
    path,
    tag: 'Projects',
    summary: 'Update the pipeline of a studio project',
    ...(nameFrom === 'path' && { params: ProjectNameParamsSchema }),
    body: PipelineConfigBodySchema,
    response: ProjectSchema,
    errors: ['invalid_request', 'unauthorized', 'not_found'],
    handler: ({ tenant, params, body }) => {
      const name = nameFrom === 'path' ? (params as { name: string }).name : body.name;
      if (name === undefined) throw invalid('Parameter is invalid, reason: "name" is required');
      return updatePipelineConfig(tenant, name, body.pipeline, body.consensus_attempts);
    },
  });

export function projectRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/projects',
      tag: 'Projects',
      summary: 'List projects (a bare array)',
      query: ListQuerySchema,
      response: ProjectListSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: ({ tenant, query }) => listProjects(tenant, query.archived),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/projects',
      tag: 'Projects',
      summary: 'Create a project (a body-less POST, or one with only `archived`, lists projects instead)',
      body: ListOrCreateBodySchema,
      bodyDoc: CreateProjectBodySchema,
      response: ProjectSchema,
      errors: ['invalid_request', 'unauthorized', 'conflict'],
      handler: ({ tenant, body }) => {
        if (isListRequest(body))
          return listProjects(
            tenant,
            parseOrThrow(z.object({ archived: z.boolean().optional() }), body ?? {}, '').archived,
          );
        return createProject(tenant, parseOrThrow(CreateProjectBodySchema, body, ''));
      },
    }),
    // Static path first: it must win over /v1/projects/{name}.
    pipelineRoute('/v1/projects/updatePipelineConfig', 'body'),
    retrieve('get'),
    retrieve('post'),
    defineRoute({
      method: 'post',
      path: '/v1/projects/{name}/setParams',
      tag: 'Projects',
      summary: 'Append a parameter version (patch: true keeps the latest values the request leaves out)',
      params: ProjectNameParamsSchema,
      body: SetParamsBodySchema,
      response: ExtendedProjectSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      absentBody: () => ({}),
      handler: ({ tenant, params, body }) => extendedProject(setProjectParams(tenant, params.name, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/projects/{name}/setOntology',
      tag: 'Projects',
      summary: 'Add a named ontology version',
      params: ProjectNameParamsSchema,
      body: SetOntologyBodySchema,
      response: ProjectSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params, body }) => setOntology(tenant, params.name, body),
    }),
    pipelineRoute('/v1/projects/{name}/updatePipelineConfig', 'path'),
    defineRoute({
      method: 'get',
      path: '/v1/projects/{name}/taskTemplates',
      tag: 'Projects',
      summary: 'The task template of a text collection or chat project',
      description:
        'Derived from the project: version is the current parameter version; template_variables holds each {{name}} placeholder of the current instruction. Other project types: 400.',
      params: ProjectNameParamsSchema,
      response: TaskTemplateSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params }) => taskTemplate(tenant, params.name),
    }),
  ];
}
