import { Hono } from 'hono';
import type { OpenAPIObject, ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, selfCheckFromEnvironment } from '../src/config/index.js';
import type { AppEnv } from '../src/http/env.js';
import { toErrorResponse } from '../src/http/error-answer.js';
import { type SelfCheckMode, selfCheck } from '../src/http/self-check/middleware.js';

const error = { $ref: '#/components/schemas/ErrorResponse' };
const json = (schema: SchemaObject | ReferenceObject) => ({ content: { 'application/json': { schema } } });

/** A document of one operation, `POST /things/{id}`, that answers `{name: string}` or a 404. */
const DOCUMENT: OpenAPIObject = {
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/things/{id}': {
      post: {
        parameters: [{ name: 'verbose', in: 'query', schema: { type: 'boolean' } }],
        requestBody: { required: true, ...json({ type: 'object', properties: { n: { type: 'integer' } } }) },
        responses: {
          '200': {
            description: 'ok',
            ...json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
          },
          '404': { description: 'missing', ...json(error) },
        },
      },
    },
  },
  components: {
    schemas: {
      ErrorResponse: {
        type: 'object',
        required: ['status_code', 'error'],
        properties: { status_code: { type: 'integer' }, error: { type: 'string' } },
      },
    },
  },
};

let keys = 0;

/** An app whose single route answers whatever the test says, checked against DOCUMENT. */
function app(mode: SelfCheckMode, answer: (c: { status: number; body: unknown }) => void = () => {}) {
  const hono = new Hono<AppEnv>();
  hono.onError(toErrorResponse);
  keys += 1;
  hono.use(selfCheck(mode, `test ${keys}`, () => [DOCUMENT]));
  hono.post('/things/:id', async (c) => {
    await c.req.text();
    const reply = { status: 200, body: { name: 'ok' } as unknown };
    answer(reply);
    return c.json(reply.body, reply.status as 200);
  });
  return hono;
}

const post = (hono: Hono<AppEnv>, body = '{"n":1}', query = '') =>
  hono.request(`/things/1${query}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('self-check', () => {
  // Strict mode logs each mismatch as an internal error: expected here, so kept off the output.
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('POST /things/{id} passes an answer the document describes through unchanged', async () => {
    const res = await post(app('strict'), '{"n":1}', '?verbose=true');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'ok' });
  });

  it('POST /things/{id} answers 500 naming the field when the body breaks the documented schema', async () => {
    const res = await post(app('strict', (r) => (r.body = { name: 7 })));
    expect(res.status).toBe(500);
    const body = await res.json();
    expect(body.status_code).toBe(500);
    expect(body.error).toMatch(
      /POST \/things\/1 answered 200: the body does not match the documented schema: \/name must be string/,
    );
  });

  it('POST /things/{id} answers 500 for a status the operation does not document', async () => {
    const res = await post(app('strict', (r) => (r.status = 409)));
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(
      /status 409 \(application\/json\) is not documented \(POST \/things\/\{id\}\)/,
    );
  });

  it('POST /things/{id} checks a documented error status against the error schema', async () => {
    const res = await post(app('strict', (r) => Object.assign(r, { status: 404, body: { message: 'gone' } })));
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(/must have required property 'status_code'/);
  });

  it('POST /things/{id} answers 500 when it accepted a body the document forbids', async () => {
    const res = await post(app('strict'), '{"n":"one"}');
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(
      /the request body was accepted, but the document forbids it: \/n must be integer/,
    );
  });

  it('POST /things/{id} answers 500 when it accepted a query value the document forbids', async () => {
    const res = await post(app('strict'), '{"n":1}', '?verbose=maybe');
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(
      /the query was accepted, but the document forbids it: "verbose" must be boolean/,
    );
  });

  it('POST /things/{id} answers 500 when it accepted a missing body the document requires', async () => {
    const res = await post(app('strict'), '');
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(/a request without a body was accepted, but the document requires one/);
  });

  it('in log mode a mismatch is printed and the answer goes out as it was', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const res = await post(app('log', (r) => (r.body = { name: 7 })));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ name: 7 });
      expect(printed).toHaveBeenCalledWith(
        expect.stringMatching(/labelmock self-check: POST \/things\/1 answered 200/),
      );
    } finally {
      printed.mockRestore();
    }
  });

  it('an unknown route must still answer the documented error body', async () => {
    const hono = app('strict');
    hono.get('/other', (c) => c.json({ oops: true }, 404));
    const res = await hono.request('/other');
    expect(res.status).toBe(500);
    expect((await res.json()).error).toMatch(/error body the body does not match/);
  });

  it('a streamed answer goes out as written and, when it ends off the schema, breaks so the reader fails', async () => {
    const hono = new Hono<AppEnv>();
    hono.use(selfCheck('strict', 'streamed', () => [DOCUMENT], new Set(['post /things/{id}'])));
    const pieces = ['{"na', 'me":', ' 7}'];
    hono.post('/things/:id', () => {
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const piece = pieces.shift();
          if (piece === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(piece));
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
    });
    const res = await post(hono);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow(/Self-check failed: .*\/name must be string/);
  });

  it('LABELMOCK_SELF_CHECK picks the mode for createApp and refuses an unknown one', () => {
    expect(selfCheckFromEnvironment({ LABELMOCK_SELF_CHECK: 'log' })).toBe('log');
    expect(selfCheckFromEnvironment({})).toBe('off');
    expect(() => selfCheckFromEnvironment({ LABELMOCK_SELF_CHECK: 'loud' })).toThrow(ConfigError);
  });
});
