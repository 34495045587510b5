import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { recordExamples } from '../scripts/examples/scenario.js';
import { fixture } from '../src/fixtures.js';
import { makeApp } from './helpers.js';

/**
 * Every example of both documents validates against its schema, compiled by Ajv as JSON Schema
 * 2020-12 (what OpenAPI 3.1 schemas are). `discriminator` and `example` are OpenAPI annotations:
 * registered as keywords without validation (a `oneOf` on a constant tag is unambiguous anyway).
 */
type Json = Record<string, unknown>;

interface Sample {
  where: string;
  schema: unknown;
  value: unknown;
}

/** CommonJS: the module is the plugin, and carries it as `default` too. */
const addFormats = formatsModule.default;

const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** Media types and parameters ({schema, example}) and schemas carrying `example` or `examples`. */
function samples(node: unknown, where: string, out: Sample[] = []): Sample[] {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) samples(item, `${where}/${i}`, out);
  }
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return out;
  const obj = node as Json;
  if ('schema' in obj && 'example' in obj) out.push({ where, schema: obj.schema, value: obj.example });
  else if ('example' in obj) out.push({ where, schema: withoutExamples(obj), value: obj.example });
  if (!('schema' in obj) && Array.isArray(obj.examples)) {
    obj.examples.forEach((value, i) => {
      out.push({ where: `${where}/examples/${i}`, schema: withoutExamples(obj), value });
    });
  }
  for (const [key, value] of Object.entries(obj)) if (!DATA_KEYS.has(key)) samples(value, `${where}/${key}`, out);
  return out;
}

const withoutExamples = ({ example: _e, examples: _s, ...schema }: Json) => schema;

/** `#/components/...` refs made absolute, so a schema compiled alone resolves them in its document. */
const absolute = (schema: unknown, base: string): unknown =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${base}#/components/`));

function validatorFor(doc: Json, base: string) {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  ajv.addKeyword('example');
  ajv.addKeyword('discriminator');
  ajv.addKeyword('components');
  ajv.addSchema({ $id: base, components: doc.components });
  return (schema: unknown, value: unknown) => {
    const validate = ajv.compile(absolute(schema, base) as object);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}

const committed = (file = 'openapi.yaml') =>
  parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8')) as Json;

async function controlDocument(): Promise<Json> {
  const t = makeApp();
  return (await (await t.app.request('/_mock/openapi.json')).json()) as Json;
}

function checkAll(doc: Json, base: string): string[] {
  const check = validatorFor(doc, base);
  return samples(doc, '').flatMap(({ where, schema, value }) => check(schema, value).map((e) => `${where}: ${e}`));
}

describe('OpenAPI examples', () => {
  it('openapi.yaml: every example is valid against its schema (Ajv, JSON Schema 2020-12)', () => {
    const doc = committed();
    expect(samples(doc, '').length).toBeGreaterThan(100);
    expect(checkAll(doc, 'urn:labelmock:api')).toEqual([]);
  });

  it('openapi-v2.yaml: every example is valid against its schema', () => {
    const doc = committed('openapi-v2.yaml');
    expect(samples(doc, '').length).toBeGreaterThan(20);
    expect(checkAll(doc, 'urn:labelmock:v2')).toEqual([]);
  });

  it('GET /_mock/openapi.json: every example is valid against its schema', async () => {
    const doc = await controlDocument();
    expect(checkAll(doc, 'urn:labelmock:control')).toEqual([]);
  });

  it('each operation has a description and a 200 example (once per answer schema); request bodies both', async () => {
    for (const doc of [committed(), committed('openapi-v2.yaml'), await controlDocument()]) {
      const operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
      );
      const answers = (op: Json) =>
        Object.values((op.responses as Record<string, { content?: Record<string, Json> }>)['200']?.content ?? {});
      // An answer schema shows its example on the first operation that answers it, not on every one.
      const shown = new Set(
        operations.flatMap(({ op }) =>
          answers(op)
            .filter((m) => 'example' in m)
            .map((m) => JSON.stringify(m.schema)),
        ),
      );
      for (const { name, op } of operations) {
        expect(op.description, `${name} description`).toBeTruthy();
        const responses = op.responses as Record<string, { content: Record<string, Json> }>;
        // A redirect (GET /v2/datasets/.../response_url/...) has no body to show.
        if (!responses['302']) {
          expect(
            answers(op).some((media) => 'example' in media || shown.has(JSON.stringify(media.schema))),
            `${name} 200 example`,
          ).toBe(true);
        }
        const body = op.requestBody as { description?: string; content: Record<string, Json> } | undefined;
        if (!body) continue;
        expect(body.description, `${name} request description`).toBeTruthy();
        const json = body.content['application/json'];
        if (json) expect('example' in json, `${name} request example`).toBe(true);
      }
    }
  });

  it('a broken example fails the check (a completed imageannotation task with a bad box)', () => {
    const doc = committed();
    const check = validatorFor(doc, 'urn:labelmock:broken');
    const schema = { $ref: '#/components/schemas/Task' };
    const task = fixture<{ type: string; response: { annotations: Json[] } }>('tasks/imageannotation.completed.json');
    expect(check(schema, task)).toEqual([]);
    const badBox = structuredClone(task);
    badBox.response.annotations[0] = { ...badBox.response.annotations[0], width: 'wide' };
    expect(check(schema, badBox).length).toBeGreaterThan(0);
    // Its response is checked against its own type's schema: as a categorization task it fails.
    expect(check(schema, { ...task, type: 'categorization' }).length).toBeGreaterThan(0);
  });

  it('POST /v1/task/imageannotation: a body may leave out what its project supplies, and nothing else', () => {
    const check = validatorFor(committed(), 'urn:labelmock:create');
    const schema = { $ref: '#/components/schemas/ImageAnnotationCreateRequest' };
    const { geometries: _g, ...bare } = fixture<Json>('tasks/imageannotation.create.json');
    expect(check(schema, bare).length).toBeGreaterThan(0);
    expect(check(schema, { ...bare, project: 'kitchen-photos' })).toEqual([]);
    // Unknown keys stay refused (the request is strict), the common parameters included or not.
    expect(check(schema, { ...bare, project: 'kitchen-photos', colour: 'red' }).length).toBeGreaterThan(0);
  });

  it('fixtures/examples/operations.json is what the mock answers (npm run openapi:write to update)', async () => {
    const committedExamples = JSON.parse(
      readFileSync(new URL('../fixtures/examples/operations.json', import.meta.url), 'utf8'),
    );
    expect(committedExamples).toEqual(await recordExamples());
  });
});
