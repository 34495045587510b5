import { generateSchema } from '@anatine/zod-openapi';
import type {
  OpenAPIObject,
  OperationObject,
  ParameterObject,
  ReferenceObject,
  RequestBodyObject,
  ResponseObject,
  ResponsesObject,
  SchemaObject,
  ServerObject,
} from 'openapi3-ts/oas31';
import { type ZodTypeAny, z } from 'zod';
import { ERROR_SCHEMA } from '../domain/common/error-response.js';
import { ERROR_CATALOG, type ErrorKind } from '../errors/index.js';
import { type RouteSpec, routeErrors } from '../http/route.js';
import type { Component } from './components.js';
import { conciseExample } from './concise-example.js';
import { errorExample } from './error-examples.js';
import { type OperationExamples, recordedExamples } from './examples.js';
import { operationId, routeKey } from './operation-ids.js';
import { queryParameters } from './parameters.js';
import { CREATE_REQUEST_DESCRIPTION, REQUEST_DESCRIPTIONS } from './request-descriptions.js';
import { asSchema, referenceInside, referenceNamed, tidySchema } from './reuse.js';

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  servers: ServerObject[];
  /** A description per route tag. */
  tags: Record<string, string>;
  /** Bearer tokens too (the v2 client sends `Authorization: Bearer <key>`), besides HTTP Basic. */
  bearer?: boolean;
}

const BASIC_AUTH = { type: 'http', scheme: 'basic', description: 'The API key as user name, empty password' } as const;
const BEARER_AUTH = { type: 'http', scheme: 'bearer', description: 'The API key as the bearer token' } as const;

const generate = (schema: ZodTypeAny, output: boolean): SchemaObject =>
  asSchema(tidySchema(generateSchema(schema, output, '3.1')));

/** Generated component schemas, and the lookups that turn repeated subtrees into `$ref`s. */
class Schemas {
  readonly named = new Map<string, string>();
  private readonly byZod = new Map<ZodTypeAny, { name: string; output: boolean }>();
  readonly components: Record<string, SchemaObject> = {};

  constructor(list: Component[]) {
    const bodies: [string, SchemaObject][] = [];
    for (const component of list) {
      if ('json' in component) {
        bodies.push([component.name, component.json]);
        continue;
      }
      const output = !component.input;
      const generated = generate(component.zod, output);
      const key = JSON.stringify(generated);
      const as = component.refAs ?? component.name;
      this.byZod.set(component.zod, { name: as, output });
      // Several task types share one shape: the later names are aliases of the first.
      const first = this.named.get(key);
      if (first) {
        bodies.push([component.name, { $ref: `#/components/schemas/${first}`, description: `Same as ${first}` }]);
        continue;
      }
      this.named.set(key, as);
      bodies.push([component.name, component.finish ? component.finish(generated) : generated]);
    }
    for (const [name, body] of bodies) this.components[name] = asSchema(referenceInside(body, this.named));
  }

  /** A route's schema: a `$ref` when it is a component (or equal to one), else generated with refs inside. */
  of(schema: ZodTypeAny, output: boolean): SchemaObject {
    const known = this.byZod.get(schema);
    if (known && known.output === output) return { $ref: `#/components/schemas/${known.name}` };
    return asSchema(referenceNamed(generate(schema, output), this.named));
  }
}

/** Who answers for the document (a generated client's README shows it): the project, by name. */
const CONTACT = { name: 'labelmock' };

/**
 * Builds an OpenAPI 3.1 document from route specs. Zod schemas are the only source: request
 * shapes are generated from their input side, responses from their output side.
 */
export function buildOpenApi(routes: RouteSpec[], components: Component[], info: DocumentInfo): OpenAPIObject {
  const schemas = new Schemas(components);
  const recorded = recordedExamples();
  const exemplified = new Set<string>();
  const paths: OpenAPIObject['paths'] = {};
  for (const route of routes.filter((r) => !r.hidden)) {
    paths[route.path] = { ...paths[route.path], [route.method]: operation(route, schemas, recorded, exemplified) };
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description, contact: CONTACT },
    servers: info.servers,
    security: info.bearer ? [{ bearerAuth: [] }, { basicAuth: [] }] : [{ basicAuth: [] }],
    tags: [...new Set(routes.filter((r) => !r.hidden).map((r) => r.tag))].map((name) => ({
      name,
      description: info.tags[name] ?? name,
    })),
    paths,
    components: {
      securitySchemes: info.bearer ? { bearerAuth: BEARER_AUTH, basicAuth: BASIC_AUTH } : { basicAuth: BASIC_AUTH },
      schemas: schemas.components,
      responses: errorResponses(routes),
      ...(routes.some((r) => r.idempotent && !r.hidden) && { parameters: { IdempotencyKey: IDEMPOTENCY_KEY } }),
    },
  };
}

function operation(
  route: RouteSpec,
  schemas: Schemas,
  recorded: OperationExamples,
  exemplified: Set<string>,
): OperationObject {
  // A route's own examples first, then the exchange recorded for it (fixtures/examples).
  const own = route.examples?.() ?? {};
  const examples = { ...recorded[routeKey(route)], ...definedOnly(own) };
  const op: OperationObject = {
    operationId: operationId(route),
    tags: [route.tag],
    summary: route.summary,
    ...(route.description && { description: route.description }),
    ...(route.deprecated && { deprecated: true }),
    // Overrides the document's Basic security: no key is needed.
    ...(route.public && { security: [] }),
    parameters: [
      ...pathParameters(route.params, schemas),
      ...queryParameters(route.query, (field) => schemas.of(field, false)),
      ...headerParameters(route),
    ],
    responses: responses(route, schemas, examples.response, exemplified),
  };
  const body = requestBody(route, schemas, examples.request);
  if (body) op.requestBody = body;
  return op;
}

/** The name of a catalog kind's shared response under components/responses, e.g. `InvalidRequest`. */
const errorResponseName = (kind: ErrorKind) =>
  kind.replace(/(^|_)([a-z])/g, (_m, _sep, letter: string) => letter.toUpperCase());

/** One shared response per error kind the routes name: description and example from the catalog. */
function errorResponses(routes: RouteSpec[]): Record<string, ResponseObject> {
  const kinds = [...new Set(routes.filter((r) => !r.hidden).flatMap(routeErrors))].sort();
  return Object.fromEntries(
    kinds.map((kind) => {
      const { summary } = ERROR_CATALOG[kind];
      const example = errorExample(kind);
      const content = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` }, example } };
      return [errorResponseName(kind), { description: summary, content }];
    }),
  );
}

/**
 * The answers of an operation. An answer's example is given once per answer schema (the first
 * operation answering a Task shows one; cancel, tags and the rest answer the same schema without
 * it): generators copy every example into the generated code.
 */
function responses(route: RouteSpec, schemas: Schemas, example: unknown, exemplified: Set<string>): ResponsesObject {
  const media = route.responseMediaType ?? 'application/json';
  const schema = route.responseComponent
    ? { $ref: `#/components/schemas/${route.responseComponent}` }
    : schemas.of(route.response, true);
  const schemaKey = JSON.stringify(schema);
  const shown = exemplified.has(schemaKey) ? undefined : example;
  if (shown !== undefined) exemplified.add(schemaKey);
  const success: ResponsesObject = route.redirect
    ? {
        '302': {
          description: 'Found: the bytes are at Location (read with the same key)',
          headers: { Location: { required: true, schema: { type: 'string' } } },
        },
      }
    : {
        '200': {
          description: 'Success',
          content: {
            [media]: { schema, ...exampleOf(conciseExample(shown)) },
          },
        },
      };
  return {
    ...success,
    ...Object.fromEntries(
      routeErrors(route).map((kind) => [
        String(ERROR_CATALOG[kind].status),
        { $ref: `#/components/responses/${errorResponseName(kind)}` },
      ]),
    ),
  };
}

function requestBody(route: RouteSpec, schemas: Schemas, example: unknown): RequestBodyObject | undefined {
  if (route.multipart) {
    const schema = schemas.of(route.multipart, false);
    return {
      required: true,
      description: schema.description ?? 'The file and its fields, as multipart/form-data',
      content: { 'multipart/form-data': { schema } },
    };
  }
  const body = route.bodyDoc ?? route.body;
  if (!body) return undefined;
  const schema = schemas.of(body, false);
  return {
    // A route that reads a missing body as an empty one does not require it.
    // So does one whose edge schema takes no body (a body-less POST /v1/projects lists projects).
    required: !body.isOptional() && !route.body?.isOptional() && route.absentBody === undefined,
    description: bodyDescription(route, body, schemas),
    content: { 'application/json': { schema, ...exampleOf(example) } },
  };
}

/** The body schema's own description (a component's when it is one), else the one listed for the operation. */
function bodyDescription(route: RouteSpec, body: ZodTypeAny, schemas: Schemas): string | undefined {
  const schema = schemas.of(body, false);
  const ref = schema.$ref?.split('/').pop();
  const own = ref ? schemas.components[ref]?.description : schema.description;
  if (own) return own;
  const listed = REQUEST_DESCRIPTIONS[routeKey(route)];
  if (listed) return listed;
  if (route.bodyDoc && ref?.endsWith('CreateRequest')) return CREATE_REQUEST_DESCRIPTION;
  // None: test/openapi-examples.test.ts names the operation.
  return undefined;
}

const definedOnly = (o: object) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const exampleOf = (value: unknown) => (value === undefined ? {} : { example: value });

function pathParameters(schema: ZodTypeAny | undefined, schemas: Schemas): ParameterObject[] {
  if (!(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([name, field]) => ({
    name,
    in: 'path',
    required: true,
    schema: schemas.of(field, false),
  }));
}

/** The Idempotency-Key header, shared by the creation routes under components/parameters. */
const IDEMPOTENCY_KEY: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Stores the first response for one day and replays it for a matching request',
  schema: { type: 'string', maxLength: 255 },
};

function headerParameters(route: RouteSpec): ReferenceObject[] {
  return route.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : [];
}
