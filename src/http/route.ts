import type { Context, Hono } from 'hono';
import type { ZodType, ZodTypeAny } from 'zod';
import type { JsonShapeOptions } from '../domain/common/json-shape.js';
import { JsonText } from '../domain/common/json-text.js';
import { parseOrThrow } from '../domain/validate.js';
import type { ErrorKind } from '../errors.js';
import type { Tenant } from '../store/tenant.js';
import { canonicalJson, type ParsedBody, readRawBody, tryParseJsonBody } from './body.js';
import type { AppEnv, Principal } from './env.js';
import type { IdempotencyGuard, Outcome } from './idempotency.js';
import { querySchemaFor } from './query-schema.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  tenant: Tenant;
  principal: Principal;
  c: Context<AppEnv>;
}

/**
 * One route: its wire shapes (zod, the single source of truth), the errors it can answer and a
 * thin handler. The same definition mounts the route and documents it in OpenAPI.
 */
export interface RouteSpec<P = any, Q = any, B = any> {
  method: Method;
  /** OpenAPI style, e.g. `/v1/task/{taskId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: ZodType<P, any, any>;
  query?: ZodType<Q, any, any>;
  body?: ZodType<B, any, any>;
  /** The body to document when it differs from the one checked at the edge (checked later, after a merge). */
  bodyDoc?: ZodTypeAny;
  /** Documented request body when `body` is not a plain zod object (e.g. a bare array). */
  bodyRequired?: boolean;
  /** A multipart/form-data body (uploads): documented, never read as JSON; the handler streams it from `c`. */
  multipart?: ZodTypeAny;
  /** The handler answers a Response itself (e.g. file bytes), documented under this media type. */
  responseMediaType?: string;
  response: ZodTypeAny;
  errors: ErrorKind[];
  /** The body's name in error messages when it is one value, e.g. "metadata" for setMetadata (default: fields at the root). */
  bodyName?: string;
  /** Shape limits of the JSON body other than the defaults (domain/common/json-shape.ts), e.g. for a state import. */
  jsonLimits?: JsonShapeOptions;
  /**
   * What a missing body means. The Python client sends `json=body or None`, so an empty dict or list
   * arrives as no body at all (setMetadata {}, tags [], setParams with nothing): read it as that value.
   */
  absentBody?: () => unknown;
  /** Honours the Idempotency-Key header (task creation). */
  idempotent?: boolean;
  /** Served but left out of the OpenAPI document (catch-alls). */
  hidden?: boolean;
  /**
   * Answered without a key (health): mounted before the auth middleware and documented without
   * security. Its handler gets no principal and no tenant, so it must not read them.
   */
  public?: boolean;
  /** Read when the document is built, not when the app is: fixtures stay off the hot path. */
  examples?: () => { request?: unknown; response?: unknown };
  handler: (input: RouteInput<P, Q, B>) => unknown | Promise<unknown>;
}

export const defineRoute = <P, Q, B>(spec: RouteSpec<P, Q, B>): RouteSpec<P, Q, B> => spec;

export const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Equal JSON bodies match whatever their formatting; a body that is not JSON (or is past the shape
 * limits, so never canonicalized: that recursion is what the limits guard) compares as text.
 */
function fingerprint(method: string, path: string, raw: string, parsed: ParsedBody): string {
  const body = !parsed.ok ? raw : parsed.value === undefined ? '' : canonicalJson(parsed.value);
  return `${method} ${path} ${body}`;
}

/** Mounts route specs on a Hono app: validation once at the edge, then the handler, always 200. */
export function mountRoutes(app: Hono<AppEnv>, routes: RouteSpec[], idempotency: IdempotencyGuard): void {
  for (const route of routes) {
    // Made once per route, not per request.
    const queryFor = querySchemaFor(route.query);
    const jsonLimits = { root: route.bodyName, ...route.jsonLimits };
    app.on(route.method.toUpperCase(), honoPath(route.path), async (c) => {
      const raw = route.method === 'get' || route.multipart ? '' : await readRawBody(c);
      // Parsed once, before the guard (the fingerprint needs it); a failure is thrown inside it.
      const parsed = tryParseJsonBody(raw, c.req.header('content-type') ?? '', jsonLimits);
      let answered: Response | undefined;
      let bytes: Uint8Array | undefined;
      const run = async (): Promise<Outcome> => {
        const params = parseOrThrow(route.params, c.req.param(), '');
        const rawQuery = c.req.queries();
        const query = parseOrThrow(queryFor ? queryFor(rawQuery) : route.query, rawQuery, '');
        if (!parsed.ok) throw parsed.error;
        const given = parsed.value === undefined && route.absentBody ? route.absentBody() : parsed.value;
        const body = parseOrThrow(route.body, given, route.bodyName ?? '');
        const result = await route.handler({
          params,
          query,
          body,
          tenant: c.get('tenant'),
          principal: c.get('principal'),
          c,
        });
        if (result instanceof Response) {
          answered = result;
          return { status: result.status, body: '' };
        }
        if (result instanceof JsonText) {
          // Bytes serialized before (a task's, kept per revision) go out as they are; an idempotent
          // route also keeps their text, for its replays.
          bytes = result.bytes;
          return { status: 200, body: route.idempotent ? result.text : '' };
        }
        return { status: 200, body: JSON.stringify(result) };
      };
      const key = c.req.header('idempotency-key');
      // Everything after the raw read happens inside the guard: even a malformed body's 400 is stored.
      const outcome =
        route.idempotent && key !== undefined
          ? await idempotency.run(c.get('tenant'), key, fingerprint(route.method, c.req.path, raw, parsed), run)
          : await run();
      if (answered) return answered;
      // A fresh JsonText answer; a replayed one (bytes unset) is the stored text.
      if (bytes && outcome.status === 200) {
        // Buffers made here (Buffer.concat, allocUnsafeSlow) own a plain ArrayBuffer, never a shared one.
        const body = bytes as Uint8Array<ArrayBuffer>;
        return c.body(body, 200, { 'Content-Type': 'application/json', ...outcome.headers });
      }
      return c.body(outcome.body, outcome.status as 200, { 'Content-Type': 'application/json', ...outcome.headers });
    });
  }
}
