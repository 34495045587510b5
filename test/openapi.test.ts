import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import { ERROR_CATALOG } from '../src/errors/index.js';
import { makeApp } from './helpers.js';

const committed = () => readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8');

describe('OpenAPI documents', () => {
  it('GET /openapi.yaml serves the committed openapi.yaml (npm run openapi:write), server: the origin', async () => {
    const t = makeApp();
    const res = await t.app.request('http://mock.test:4010/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/yaml/);
    const served = parse(await res.text());
    const doc = parse(committed());
    expect(served.servers).toEqual([{ url: 'http://mock.test:4010', description: expect.any(String) }]);
    expect({ ...served, servers: doc.servers }).toEqual(doc);
  });

  it('GET /openapi.json is the same document, public (no key needed), with the origin as its server', async () => {
    const t = makeApp();
    const res = await t.app.request('http://127.0.0.1:3999/openapi.json');
    expect(res.status).toBe(200);
    const served = await res.json();
    expect(served.servers[0].url).toBe('http://127.0.0.1:3999');
    expect({ ...served, servers: parse(committed()).servers }).toEqual(parse(committed()));
  });

  it('GET /openapi-v2.yaml and .json serve openapi-v2.yaml: 26 operations, valid OpenAPI 3.1', async () => {
    const t = makeApp();
    const doc = parse(readFileSync(new URL('../openapi-v2.yaml', import.meta.url), 'utf8'));
    const yaml = await t.app.request('http://mock.test:4010/openapi-v2.yaml');
    expect(yaml.headers.get('content-type')).toMatch(/yaml/);
    const served = parse(await yaml.text());
    expect(served.servers[0].url).toBe('http://mock.test:4010');
    expect({ ...served, servers: doc.servers }).toEqual(doc);
    const json = await (await t.app.request('http://mock.test:4010/openapi-v2.json')).json();
    expect({ ...json, servers: doc.servers }).toEqual(doc);
    const operations = Object.values(doc.paths as Record<string, object>).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(26);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("openapi.yaml names labelmock's default address as its server and says how to point it elsewhere", () => {
    const doc = parse(committed());
    // Absolute: a client generated from the file has a base URL that works under Node as it is.
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:3000', description: expect.stringMatching(/labelmock/) }]);
    expect(doc.info.description).toMatch(/servers\[0\]\.url/);
  });

  it('operation ids are unique in each document and read as function names (verb first, camelCase)', () => {
    const v2 = parse(readFileSync(new URL('../openapi-v2.yaml', import.meta.url), 'utf8'));
    for (const doc of [parse(committed()), v2]) {
      const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
        Object.values(item).map((op) => op.operationId),
      );
      expect(new Set(ids).size).toBe(ids.length);
      const verbs =
        'get|list|create|set|add|delete|update|cancel|finalize|pause|resume|audit|force|prioritize|upload|' +
        'import|invite|remove|reset|send';
      for (const id of ids) expect(id).toMatch(new RegExp(`^(${verbs})[A-Z][A-Za-z]*$`));
    }
    expect(parse(committed()).paths['/v1/task/imageannotation'].post.operationId).toBe('createImageAnnotationTask');
  });

  it('GET /_mock/openapi.json serves the committed openapi-control.yaml (npm run openapi:write)', async () => {
    const t = makeApp();
    const doc = parse(readFileSync(new URL('../openapi-control.yaml', import.meta.url), 'utf8'));
    const served = await (await t.app.request('http://mock.test:4010/_mock/openapi.json')).json();
    expect(served.servers[0].url).toBe('http://mock.test:4010');
    expect({ ...served, servers: doc.servers }).toEqual(doc);
  });

  it('openapi.yaml is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(parse(committed()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('no component schema of either document comes out empty (zod 4 schemas would)', async () => {
    const t = makeApp();
    const control = await (await t.app.request('/_mock/openapi.json')).json();
    for (const doc of [parse(committed()), control]) {
      for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, Record<string, unknown>>)) {
        expect(Object.keys(schema).length, name).toBeGreaterThan(0);
        const shapes = ['type', 'properties', 'oneOf', 'anyOf', 'allOf', 'items', 'additionalProperties', '$ref'];
        const hasShape = shapes.some((key) => key in schema);
        expect(hasShape, `${name} has no shape`).toBe(true);
      }
    }
  });

  it('documents every /v1 route the app serves, and no /_mock route', async () => {
    const t = makeApp();
    const doc = parse(committed());
    const served = t.app.routes
      .filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL' && r.path !== '/v1/task/:type')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(new Set(documented)).toEqual(new Set(served));
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/_mock'))).toBe(false);
  });

  it('each task type has its creation request, response schema and examples', () => {
    const doc = parse(committed());
    for (const [type, def] of Object.entries(TASK_TYPES)) {
      const op = doc.paths[`/v1/task/${type}`].post;
      expect(op.requestBody.content['application/json'].schema.$ref).toBe(
        `#/components/schemas/${def.schemaName}CreateRequest`,
      );
      expect(op.requestBody.content['application/json'].example).toBeTruthy();
      // Creation answers the task pending; the completed response is the response schema's example.
      expect(op.responses['200'].content['application/json'].example.status).toBe('pending');
      expect(doc.components.schemas[`${def.schemaName}Response`]).toBeTruthy();
      // A creation answers its own type's task; the Task union lists that branch, narrowed by a string `type`.
      const branch = { $ref: `#/components/schemas/${def.schemaName}Task` };
      expect(op.responses['200'].content['application/json'].schema).toEqual(branch);
      expect(doc.components.schemas.Task.oneOf).toContainEqual(branch);
      const own = doc.components.schemas[`${def.schemaName}Task`].allOf[1].properties.type;
      expect(own).toEqual({ type: 'string', enum: [type] });
      expect(op.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      expect(doc.components.parameters.IdempotencyKey.name).toBe('Idempotency-Key');
    }
  });

  it('every documented error status comes from the catalog with the ErrorResponse schema', () => {
    const doc = parse(committed());
    const statuses = new Set(Object.values(ERROR_CATALOG).map((e) => String(e.status)));
    for (const item of Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, any> }>>)) {
      for (const op of Object.values(item)) {
        for (const [status, ref] of Object.entries(op.responses)) {
          if (status === '200') continue;
          expect(statuses.has(status)).toBe(true);
          const response = doc.components.responses[String(ref.$ref).split('/').pop() ?? ''];
          expect(response.description).toBeTruthy();
          expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorResponse');
          expect(response.content['application/json'].example.status_code).toBe(Number(status));
        }
      }
    }
  });

  it('GET /_mock/openapi.json documents the control routes', async () => {
    const t = makeApp();
    const doc = await (await t.app.request('/_mock/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/_mock/tasks/{taskId}/complete',
        '/_mock/tasks/{taskId}/fail',
        '/_mock/clock',
        '/_mock/clock/advance',
        '/_mock/settings',
        '/_mock/reset',
        '/_mock/state',
      ]),
    );
    expect((await new Validator().validate(doc)).valid).toBe(true);
  });
});

describe('openapi.yaml and the official clients agree on list filters', () => {
  const parameterSchema = (name: string) => {
    const doc = parse(committed());
    const params: { name: string; schema: object }[] = doc.paths['/v1/tasks'].get.parameters;
    return params.find((p) => p.name === name)?.schema;
  };

  it.each([
    ['customer_review_status', ['accepted,rejected'], true],
    ['customer_review_status', ['accepted'], true],
    ['customer_review_status', ['accepted', 'fixed'], true],
    ['customer_review_status', ['accepted,bogus'], false],
    ['status', ['completed'], true],
    ['type', ['imageannotation'], true],
  ])('GET /v1/tasks?%s=%j: the document says %s and the server agrees', async (name, values, fits) => {
    // The Python client joins a list of review statuses with commas (scaleapi/__init__.py, b4111b2).
    const validate = new Ajv({ strict: false }).compile(parameterSchema(name) ?? {});
    expect(validate(values)).toBe(fits);
    const t = makeApp();
    const query = values.map((value) => `${name}=${encodeURIComponent(value)}`).join('&');
    const res = await t.call('GET', `/v1/tasks?${query}`);
    expect(res.status).toBe(fits ? 200 : 400);
  });
});
