import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import { ERROR_CATALOG } from '../src/errors.js';
import { makeApp } from './helpers.js';

const committed = () => readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8');

describe('OpenAPI documents', () => {
  it('GET /openapi.yaml serves exactly the committed openapi.yaml (npm run openapi:write to update)', async () => {
    const t = makeApp();
    const res = await t.app.request('/openapi.yaml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/yaml/);
    expect(await res.text()).toBe(committed());
  });

  it('GET /openapi.json is the same document, public (no key needed)', async () => {
    const t = makeApp();
    const res = await t.app.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(parse(committed()));
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
        const hasShape = 'properties' in schema || 'oneOf' in schema || 'anyOf' in schema || 'items' in schema;
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
      expect(op.responses['200'].content['application/json'].example.status).toBe('completed');
      expect(doc.components.schemas[`${def.schemaName}Response`]).toBeTruthy();
      expect(op.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    }
  });

  it('every documented error status comes from the catalog with the Error schema', () => {
    const doc = parse(committed());
    const statuses = new Set(Object.values(ERROR_CATALOG).map((e) => String(e.status)));
    for (const item of Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, any> }>>)) {
      for (const op of Object.values(item)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (status === '200') continue;
          expect(statuses.has(status)).toBe(true);
          expect(response.content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
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
