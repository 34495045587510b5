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
import { invalidParameter } from '../errors/index.js';
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
import { projectOf } from '../store/account.js';

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
    description:
      'Answers the project of the account with its current parameters and parameter history' +
      (method === 'post' ? ' (the POST form some clients send)' : ''),
    params: ProjectNameParamsSchema,
    response: ProjectSchema,
    errors: ['not_found'],
    handler: ({ tenant, params }) => projectOf(requireProject(tenant, params.name)),
  });

const pipelineRoute = (path: string, nameFrom: 'path' | 'body') =>
  defineRoute({
    method: 'post',
    path,
    tag: 'Projects',
    summary: 'Update the pipeline of a studio project',
    description:
      "Sets a Studio project's pipeline: standard_task, or consensus_task with consensus_attempts. The project is " +
      'named in the path, or by `name` in the body of POST /v1/projects/updatePipelineConfig.',
    ...(nameFrom === 'path' && { params: ProjectNameParamsSchema }),
    body: PipelineConfigBodySchema,
    response: ProjectSchema,
    errors: ['not_found'],
    handler: ({ tenant, params, body }) => {
      const name = nameFrom === 'path' ? (params as { name: string }).name : body.name;
      if (name === undefined) throw invalidParameter('name', 'is required');
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
      description:
        'Answers the projects of the account as a bare array; archived=true or false keeps only archived or ' +
        'active ones.',
      query: ListQuerySchema,
      response: ProjectListSchema,
      errors: [],
      handler: ({ tenant, query }) => listProjects(tenant, query.archived),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/projects',
      tag: 'Projects',
      summary: 'Create a project (a body-less POST, or one with only `archived`, lists projects instead)',
      description:
        'Creates a project of one task type, with the parameters its tasks inherit (`params`); rapid and studio ' +
        'make it a Rapid or Studio project. Names are unique per account: a used name is a 409. A body-less POST, ' +
        'or one naming only `archived`, lists projects instead, as GET does.',
      body: ListOrCreateBodySchema,
      bodyDoc: CreateProjectBodySchema,
      // The real service's quirk: the same POST lists the projects when it names none to create.
      response: z.union([ProjectSchema, ProjectListSchema]),
      errors: ['conflict'],
      handler: ({ tenant, body, c }) => {
        if (isListRequest(body))
          return listProjects(
            tenant,
            parseOrThrow(z.object({ archived: z.boolean().optional() }), body ?? {}, '').archived,
          );
        return createProject(tenant, parseOrThrow(CreateProjectBodySchema, body, '', c.get('lenience')));
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
      description:
        'Appends a parameter version that tasks created afterwards inherit. With patch: true the values the ' +
        'request leaves out are kept from the latest version; without it they are dropped. Answers the project.',
      params: ProjectNameParamsSchema,
      body: SetParamsBodySchema,
      response: ExtendedProjectSchema,
      errors: ['not_found'],
      absentBody: () => ({}),
      handler: ({ tenant, params, body }) => extendedProject(setProjectParams(tenant, params.name, body)),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/projects/{name}/setOntology',
      tag: 'Projects',
      summary: 'Add a named ontology version',
      description:
        'Adds a named ontology version: label choices, each a name or an object with subchoices; no name may ' +
        'repeat inside it. Answers the project with its ontologies.',
      params: ProjectNameParamsSchema,
      body: SetOntologyBodySchema,
      response: ProjectSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, body }) => setOntology(tenant, params.name, body),
    }),
    pipelineRoute('/v1/projects/{name}/updatePipelineConfig', 'path'),
    defineRoute({
      method: 'get',
      path: '/v1/projects/{name}/taskTemplates',
      tag: 'Projects',
      summary: 'The task template of a text collection or chat project',
      description:
        'Derived from the project: version is the current parameter version; template_variables holds each {{name}} ' +
        'placeholder of the current instruction. Other project types: 400.',
      params: ProjectNameParamsSchema,
      response: TaskTemplateSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => taskTemplate(tenant, params.name),
    }),
  ];
}
