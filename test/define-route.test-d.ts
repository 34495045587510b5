import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { JsonText } from '../src/domain/common/json-text.js';
import { defineRoute } from '../src/http/route.js';
import type { Tenant } from '../src/store/tenant.js';

/**
 * What a route's declaration promises its handler, pinned by type (as honojs/middleware's zod-openapi keeps
 * `*.test-d.ts`): `npm run typecheck` (part of `npm test`) fails when a promise breaks.
 */

const Params = z.object({ taskId: z.string() });
const Query = z.object({ limit: z.coerce.number().int().optional() });
const Body = z.object({ name: z.string(), tags: z.array(z.string()).default([]) });
const Answer = z.object({ id: z.string(), count: z.number() });

/** A route without params, query or body. */
const bare = {
  method: 'get',
  path: '/v1/things',
  tag: 'Tasks',
  summary: 'a route of the type test',
  response: Answer,
} as const;

describe('defineRoute', () => {
  it("gives the handler what the params, query and body parse to (the schemas' outputs) and its tenant", () => {
    defineRoute({
      method: 'post',
      path: '/v1/things/{taskId}',
      tag: 'Tasks',
      summary: 'a route of the type test',
      params: Params,
      query: Query,
      body: Body,
      response: Answer,
      errors: [],
      handler: ({ params, query, body, tenant }) => {
        expectTypeOf(params).toEqualTypeOf<{ taskId: string }>();
        expectTypeOf(query).toEqualTypeOf<{ limit?: number | undefined }>();
        // A default makes the output field required, whatever the input left out.
        expectTypeOf(body).toEqualTypeOf<{ name: string; tags: string[] }>();
        expectTypeOf(tenant).toEqualTypeOf<Tenant>();
        return { id: params.taskId, count: body.tags.length };
      },
    });
  });

  it('types absent params, query and body as undefined', () => {
    defineRoute({
      ...bare,
      errors: [],
      handler: ({ params, query, body }) => {
        expectTypeOf(params).toEqualTypeOf<undefined>();
        expectTypeOf(query).toEqualTypeOf<undefined>();
        expectTypeOf(body).toEqualTypeOf<undefined>();
        return { id: 'x', count: 0 };
      },
    });
  });

  it('holds the handler to the response schema: its input, JSON text of its output, or a Response', () => {
    type Handler = Parameters<
      typeof defineRoute<z.ZodUndefined, z.ZodUndefined, z.ZodUndefined, typeof Answer>
    >[0]['handler'];
    type Returned = Awaited<ReturnType<Handler>>;
    expectTypeOf<{ id: string; count: number }>().toMatchTypeOf<Returned>();
    expectTypeOf<JsonText<{ id: string; count: number }>>().toMatchTypeOf<Returned>();
    expectTypeOf<Response>().toMatchTypeOf<Returned>();
    expectTypeOf<{ id: string }>().not.toMatchTypeOf<Returned>();
    expectTypeOf<{ id: number; count: number }>().not.toMatchTypeOf<Returned>();
  });

  it('refuses, in `errors`, the kinds the edge answers for every route (they are derived, never listed)', () => {
    defineRoute({
      ...bare,
      // @ts-expect-error: a 401 is the edge's, derived by routeErrors.
      errors: ['unauthorized'],
      handler: () => ({ id: 'x', count: 0 }),
    });
  });
});
