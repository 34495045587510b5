import { generateSchema } from '@anatine/zod-openapi';
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { type ZodTypeAny, z } from 'zod';
import { ERROR_CATALOG } from '../errors.js';
import type { RouteSpec } from '../http/route.js';

export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
  serverUrl: string;
}

const toSchema = (schema: ZodTypeAny, output: boolean): SchemaObject =>
  generateSchema(schema, output, '3.1') as SchemaObject;

/**
 * Builds an OpenAPI 3.1 document from route specs. Zod schemas are the only source: request
 * shapes are generated from their input side, responses from their output side.
 */
export function buildOpenApi(routes: RouteSpec[], named: [string, ZodTypeAny][], info: DocumentInfo): OpenAPIObject {
  const refs = new Map<ZodTypeAny, string>(named.map(([name, schema]) => [schema, name]));
  const ref = (schema: ZodTypeAny, output: boolean): SchemaObject =>
    refs.has(schema) ? { $ref: `#/components/schemas/${refs.get(schema)}` } : toSchema(schema, output);

  const paths: OpenAPIObject['paths'] = {};
  for (const route of routes.filter((r) => !r.hidden)) {
    const examples = route.examples?.() ?? {};
    const operation: OperationObject = {
      operationId: operationId(route),
      tags: [route.tag],
      summary: route.summary,
      ...(route.description && { description: route.description }),
      // Overrides the document's Basic security: no key is needed.
      ...(route.public && { security: [] }),
      parameters: [
        ...objectParameters(route.params, 'path'),
        ...objectParameters(route.query, 'query'),
        ...headerParameters(route),
      ],
      responses: {
        '200': {
          description: 'Success',
          content: {
            [route.responseMediaType ?? 'application/json']: {
              schema: ref(route.response, true),
              ...example(examples.response),
            },
          },
        },
        ...Object.fromEntries(
          route.errors.map((kind) => [
            String(ERROR_CATALOG[kind].status),
            {
              description: ERROR_CATALOG[kind].summary,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
            },
          ]),
        ),
      },
    };
    const body = route.bodyDoc ?? route.body;
    if (body) {
      operation.requestBody = {
        // A route that reads a missing body as an empty one does not require it.
        required: !body.isOptional() && route.absentBody === undefined,
        content: { 'application/json': { schema: ref(body, false), ...example(examples.request) } },
      };
    }
    if (route.multipart) {
      operation.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: ref(route.multipart, false) } },
      };
    }
    paths[route.path] = { ...paths[route.path], [route.method]: operation };
  }

  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    servers: [{ url: info.serverUrl }],
    security: [{ basicAuth: [] }],
    paths,
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'The API key as user name, empty password' },
      },
      schemas: Object.fromEntries(named.map(([name, schema]) => [name, toSchema(schema, !name.endsWith('Request'))])),
    },
  };
}

const example = (value: unknown) => (value === undefined ? {} : { example: value });

function operationId(route: RouteSpec): string {
  const words = `${route.method} ${route.path}`
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1))).join('');
}

function objectParameters(schema: ZodTypeAny | undefined, where: 'path' | 'query'): ParameterObject[] {
  if (!schema || !(schema instanceof z.ZodObject)) return [];
  return Object.entries(schema.shape as Record<string, ZodTypeAny>).map(([name, field]) => ({
    name,
    in: where,
    required: where === 'path' || !field.isOptional(),
    schema: toSchema(field, false),
  }));
}

function headerParameters(route: RouteSpec): ParameterObject[] {
  if (!route.idempotent) return [];
  return [
    {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Stores the first response for one day and replays it for a matching request',
      schema: { type: 'string', maxLength: 255 },
    },
  ];
}
