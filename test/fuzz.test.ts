/**
 * Fuzz: for every operation of openapi.yaml and of the control plane's document, generated requests
 * (valid-ish bodies from the schemas, hostile ones: deep, huge, wrong types, prototype keys, odd
 * unicode and numbers; odd queries and path segments) never get a 5xx; every error has the
 * standard body; and the tenant reads fine afterwards. Seeded and bounded: the same requests on
 * every run, a few seconds in all. FUZZ_RUNS=n and FUZZ_SEED=n run more or other requests (to hunt bugs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyText, hostileValue, oddParam, toText } from './fuzz/hostile.js';
import {
  type OpenApiDocument,
  type Operation,
  operationsOf,
  type Parameter,
  publicDocument,
} from './fuzz/operations.js';
import { fromSchema } from './fuzz/schema-arbitrary.js';
import { basic, createImageTask, KEY, makeApp, type TestApp } from './helpers.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

interface Seeded {
  t: TestApp;
  values: Record<string, string>;
}

/** A tenant with something of each kind, so path parameters can name real objects. */
async function seededTenant(): Promise<Seeded> {
  const t = makeApp();
  await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 'p' } });
  await t.call('POST', '/v1/projects', { body: { type: 'imageannotation', name: 's', studio: true } });
  await t.call('POST', '/v1/batches', { body: { project: 'p', name: 'b' } });
  const task = await createImageTask(t, { project: 'p' });
  const file = await t.call('POST', '/v1/files/import', {
    body: { file_url: 'https://example.com/f.png', project_name: 'p' },
  });
  const values = {
    taskId: task.task_id,
    name: 'p',
    project: 's',
    projectName: 's',
    batchName: 'b',
    batch: 'b',
    group: 'g',
    fileId: file.body.id,
    type: 'imageannotation',
  };
  return { t, values };
}

const paramValue = (param: Parameter, op: Operation, seeded: Seeded): fc.Arbitrary<string | undefined> => {
  const known = seeded.values[param.name];
  const valid = fromSchema(param.schema, op.components).map((v) => (Array.isArray(v) ? v.join(',') : String(v)));
  if (param.in === 'path')
    return fc.oneof({ weight: 3, arbitrary: fc.constant(known ?? 'x') }, { weight: 1, arbitrary: oddParam });
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: valid.map(encodeURIComponent) },
    { weight: 2, arbitrary: oddParam },
  );
};

interface Request {
  path: string;
  body?: BodyInit;
  headers: Record<string, string>;
}

function requestArbitrary(op: Operation, seeded: Seeded): fc.Arbitrary<Request> {
  const params = op.parameters.filter((p) => p.in !== 'header');
  const query = fc.tuple(
    fc.tuple(...params.map((p) => paramValue(p, op, seeded))),
    // Keys named after Object.prototype members, bare and as `key[]` (a 500 once merged them into a plain object).
    fc.constantFrom(
      '',
      '&__proto__=1',
      '&constructor=x',
      '&limit=1&limit=2',
      '&unknown_filter=1',
      '&toString[]=x',
      '&constructor[]=x',
      '&__proto__[]=x',
      '&valueOf[]=x&hasOwnProperty=1',
    ),
  );
  const body: fc.Arbitrary<BodyInit | undefined> =
    op.method === 'GET'
      ? fc.constant(undefined)
      : op.multipart
        ? multipartBody
        : op.body
          ? bodyText(fromSchema(op.body, op.components))
          : fc.constantFrom(undefined, '', '{}', '[1]', '{"a":');
  const idempotency = fc.constantFrom<Record<string, string>>(
    {},
    {},
    { 'idempotency-key': 'fuzz-key' },
    { 'idempotency-key': 'x'.repeat(300) },
    { constructor: 'x', tostring: 'y' },
  );
  return fc.tuple(query, body, idempotency).map(([[values, extra], text, headers]) => {
    let path = op.path;
    const search: string[] = [];
    params.forEach((p, i) => {
      const value = values[i];
      if (p.in === 'path') path = path.replace(`{${p.name}}`, value ?? '');
      else if (value !== undefined) search.push(`${encodeURIComponent(p.name)}=${value}`);
    });
    const queryText = search.join('&') + extra;
    return { path: queryText ? `${path}?${queryText}` : path, ...(text !== undefined && { body: text }), headers };
  });
}

/** Multipart bodies: the file part or not, text fields as fields or as file parts, hostile field values. */
const multipartBody: fc.Arbitrary<BodyInit> = fc
  .record({
    file: fc.boolean(),
    fields: fc.array(
      fc.tuple(
        fc.constantFrom('display_name', 'project_name', 'reference_id', 'metadata', 'file', 'other', '__proto__'),
        hostileValue.map(toText),
        fc.boolean(),
      ),
      { maxLength: 4 },
    ),
  })
  .map(({ file, fields }) => {
    const form = new FormData();
    if (file) form.append('file', new Blob(['bytes']), 'f.png');
    for (const [name, value, asFile] of fields) {
      if (asFile) form.append(name, new Blob([value]), 'part.txt');
      else form.append(name, value);
    }
    return form;
  });

async function send(t: TestApp, method: string, request: Request) {
  const headers: Record<string, string> = { authorization: basic(KEY), ...request.headers };
  if (typeof request.body === 'string') headers['content-type'] = 'application/json';
  // A wait that matches nothing waits out its timeout: appended last (the last value counts), 1 ms bounds it while
  // every other parameter stays as drawn.
  const bounded = request.path.startsWith('/_mock/wait');
  const path = bounded ? `${request.path}${request.path.includes('?') ? '&' : '?'}timeout_ms=1` : request.path;
  const res = await t.app.request(path, {
    method,
    headers,
    ...(request.body !== undefined && { body: request.body }),
  });
  // An event stream (GET /_mock/events) never ends: its status is the answer.
  if (res.headers.get('content-type') === 'text/event-stream') {
    await res.body?.cancel();
    return { status: res.status, text: '' };
  }
  return { status: res.status, text: await res.text() };
}

function expectStandardError(status: number, text: string, what: string) {
  expect(status, what).toBeLessThan(500);
  if (status < 400) return;
  let body: unknown;
  expect(() => (body = JSON.parse(text)), `${what}: ${text.slice(0, 200)}`).not.toThrow();
  expect(body, what).toEqual({ status_code: status, error: expect.any(String) });
}

async function expectReadable(t: TestApp, what: string) {
  for (const path of ['/v1/tasks', '/v1/tasks?limited_response=true', '/_mock/state']) {
    const res = await send(t, 'GET', { path, headers: {} });
    expect(res.status, `${what}, then GET ${path}: ${res.text.slice(0, 200)}`).toBe(200);
  }
}

function describeOperations(title: string, load: () => Promise<OpenApiDocument>) {
  describe(title, async () => {
    const operations = operationsOf(await load());
    it.each(operations.map((op) => [op.method, op.path, op] as const))(
      '%s %s: no 5xx, standard errors, tenant still readable',
      async (method, _path, op) => {
        const seeded = await seededTenant();
        try {
          await fc.assert(
            fc.asyncProperty(requestArbitrary(op, seeded), async (request) => {
              const res = await send(seeded.t, method, request);
              const body = typeof request.body === 'string' ? request.body.slice(0, 300) : '(form)';
              const what = `${method} ${request.path} ${body}`;
              expectStandardError(res.status, res.text, what);
              await expectReadable(seeded.t, what);
            }),
            { seed: SEED, numRuns: RUNS, endOnFailure: true },
          );
        } finally {
          seeded.t.app.dispose();
        }
      },
    );
  });
}

describeOperations('fuzz: openapi.yaml', async () => publicDocument());

describeOperations('fuzz: the control plane (/_mock/openapi.json)', async () => {
  const t = makeApp();
  const res = await t.app.request('/_mock/openapi.json');
  return (await res.json()) as OpenApiDocument;
});
