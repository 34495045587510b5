import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { ERROR_SCHEMA } from '../../domain/common/error-response.js';

/** One documented operation, its validators compiled on first use (a document has hundreds). */
export interface CheckedOperation {
  method: string;
  template: string;
  /** A validator per documented status and media type, or `undefined` for a body the document leaves open. */
  response(status: number, mediaType: string): { documented: boolean; validate?: ValidateFunction };
  /** The JSON request body's validator, when the operation documents one. */
  requestBody(): ValidateFunction | undefined;
  /** The documented query parameters, each with a validator of `{value}` (values as the strings sent). */
  query(): QueryParameterCheck[];
  /** Whether the request body is required. */
  bodyRequired: boolean;
}

// ajv-formats is CommonJS with a `default` export: under NodeNext the default import is the module object.
const addFormats = formats.default;

interface QueryParameterCheck {
  name: string;
  required: boolean;
  validate: ValidateFunction;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function newAjv(coerce: boolean): Ajv2020 {
  // OpenAPI keywords (example, discriminator, xml) are annotations here: strict mode would refuse them.
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: coerce ? 'array' : false });
  addFormats(ajv);
  return ajv;
}

/** `#/components/...` inside an operation points into the document, registered under `id`. */
const rebased = (schema: unknown, id: string): SchemaObject =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${id}#/components/`));

/** Compiles the operations of `documents`, most specific path first, as routing matches them. */
export function compileOperations(documents: OpenAPIObject[]): CheckedOperation[] {
  const bodies = newAjv(false);
  const queries = newAjv(true);
  const operations: CheckedOperation[] = [];
  documents.forEach((document, index) => {
    const id = `doc${index}`;
    for (const ajv of [bodies, queries]) ajv.addSchema({ $id: id, components: document.components ?? {} });
    for (const [template, item] of Object.entries(document.paths ?? {})) {
      for (const method of METHODS) {
        const operation: OperationObject | undefined = item[method];
        if (operation) operations.push(checked(method, template, operation, id, bodies, queries));
      }
    }
  });
  return operations;
}

function checked(
  method: string,
  template: string,
  operation: OperationObject,
  id: string,
  bodies: Ajv2020,
  queries: Ajv2020,
): CheckedOperation {
  const kept = new Map<string, ValidateFunction>();
  const compile = (key: string, ajv: Ajv2020, schema: unknown) => {
    const known = kept.get(key);
    if (known) return known;
    const validate = ajv.compile(rebased(schema, id));
    kept.set(key, validate);
    return validate;
  };
  const body = operation.requestBody && 'content' in operation.requestBody ? operation.requestBody : undefined;
  return {
    method,
    template,
    bodyRequired: body?.required === true,
    response(status, mediaType) {
      const answer = operation.responses?.[String(status)] ?? operation.responses?.default;
      if (!answer) return { documented: false };
      const content = answer.content ?? {};
      const schema = content[mediaType]?.schema;
      // Bytes of any type (a file's content) are documented as */* and not validated.
      if (!schema) return { documented: Object.keys(content).length === 0 || mediaType in content || '*/*' in content };
      return { documented: true, validate: compile(`${status} ${mediaType}`, bodies, schema) };
    },
    requestBody() {
      const schema = body?.content['application/json']?.schema;
      return schema ? compile('request', bodies, schema) : undefined;
    },
    query() {
      return queryParameters(operation.parameters ?? []).map((p) => ({
        name: p.name,
        required: p.required === true,
        // Wrapped in an object: Ajv coerces a string to the parameter's type only below the root.
        validate: compile(`query ${p.name}`, queries, { type: 'object', properties: { value: p.schema ?? {} } }),
      }));
    },
  };
}

/**
 * The documented query parameters. Other keys are left open, as OpenAPI leaves them: routes without
 * a query ignore them; the task list, which refuses them, answers 400 anyway.
 */
const queryParameters = (parameters: NonNullable<OperationObject['parameters']>) =>
  parameters.filter((p): p is ParameterObject => 'in' in p && p.in === 'query');

/** The error body every failure shares, for answers no operation documents (unknown routes, 405s). */
export function compileErrorSchema(documents: OpenAPIObject[]): ValidateFunction {
  const ajv = newAjv(false);
  ajv.addSchema({ $id: 'doc0', components: documents[0]?.components ?? {} });
  return ajv.compile({ $ref: `doc0#/components/schemas/${ERROR_SCHEMA}` });
}
