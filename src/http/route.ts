import type { Context } from 'hono';
import type { ZodTypeAny, z } from 'zod';
import type { JsonShapeOptions } from '../domain/common/json-shape.js';
import type { JsonText } from '../domain/common/json-text.js';
import { parseOrThrow } from '../domain/validate.js';
import type { ErrorKind } from '../errors/index.js';
import type { Tenant } from '../store/tenant.js';
import type { AppEnv, Principal } from './env.js';
import { queryParser } from './query-parser.js';

/** Kinds every route of a shape answers at the edge: `routeErrors` adds them, a route never lists them. */
type EdgeErrorKind =
  | 'invalid_request'
  | 'unauthorized'
  | 'service_unavailable'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'method_not_allowed'
  | 'internal'
  | 'bad_gateway'
  | 'gateway_timeout';
type OwnErrorKind = Exclude<ErrorKind, EdgeErrorKind>;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  tenant: Tenant;
  principal: Principal;
  c: Context<AppEnv>;
}

/**
 * What a handler may answer for a response schema `R`: a value the schema accepts, bytes serialized
 * before from such a value, or a Response it built itself (file bytes, a stream) for routes that
 * document their own media type.
 */
type Answer<R extends ZodTypeAny> = z.input<R> | JsonText<z.output<R>> | Response;

/** Where a route reads nothing, its handler gets `undefined`. */
type Absent = z.ZodUndefined;

/** The route's metadata: everything but the handler, shared by the typed definition and the mounted route. */
interface RouteMeta {
  method: Method;
  /** OpenAPI style, e.g. `/v1/task/{taskId}`. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** The body to document when it differs from the one checked at the edge (checked later, after a merge). */
  bodyDoc?: ZodTypeAny;
  /** A multipart/form-data body (uploads): documented, never read as JSON; the handler streams it from `c`. */
  multipart?: ZodTypeAny;
  /**
   * The component the answer is documented as when it is narrower than `response` says: a creation
   * answers its own type's task (`ImageAnnotationTask`), not any task. The self-check holds it to that.
   */
  responseComponent?: string;
  /** The handler answers a Response itself (e.g. file bytes), documented under this media type. */
  responseMediaType?: string;
  /** The answer is a 302 to where the bytes are (its handler answers the redirect itself). */
  redirect?: boolean;
  /** The answer is written as a stream (a state export): the self-check checks it as it passes, never holds it. */
  streamed?: boolean;
  /**
   * The errors the route's own rules answer (a missing project, a used name). Those the edge answers
   * for every route of its shape (400, 401, 413, 415, 429, 503) are added by `routeErrors`, and the
   * type refuses them here: they are derived, never listed by hand.
   */
  errors: OwnErrorKind[];
  /**
   * The body's name in error messages when it is one value, e.g. "metadata" for setMetadata (default: fields at the
   * root).
   */
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
  /** Served and documented as deprecated: a path older clients use, beside the current one. */
  deprecated?: boolean;
  /**
   * Answered without a key (health): mounted before the auth middleware and documented without
   * security. Its handler gets no principal and no tenant, so it must not read them.
   */
  public?: boolean;
  /** Read when the document is built, not when the app is: fixtures stay off the hot path. */
  examples?: () => { request?: unknown; response?: unknown };
}

/**
 * One route as written: its wire shapes (zod, the single source of truth) and a thin handler typed
 * by them. The handler gets what the schemas parse to and must answer what `response` accepts: the
 * compiler checks the document's promise, the self-check (LABELMOCK_SELF_CHECK) checks the wire.
 */
export interface RouteDefinition<
  P extends ZodTypeAny = Absent,
  Q extends ZodTypeAny = Absent,
  B extends ZodTypeAny = Absent,
  R extends ZodTypeAny = ZodTypeAny,
> extends RouteMeta {
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  handler: (input: RouteInput<z.output<P>, z.output<Q>, z.output<B>>) => Answer<R> | Promise<Answer<R>>;
}

/**
 * The raw input of a request, before validation; `body` is the parsed JSON (or the absent-body value).
 * The query is read from `c` (its parse is kept per query text: query-parser.ts).
 */
interface RawInput {
  params: Record<string, string>;
  body: unknown;
  c: Context<AppEnv>;
}

/** A route with its types erased, as mounting and the document see it: `invoke` validates, then handles. */
export interface RouteSpec extends RouteMeta {
  params?: ZodTypeAny;
  query?: ZodTypeAny;
  body?: ZodTypeAny;
  response: ZodTypeAny;
  invoke(raw: RawInput): unknown;
}

export function defineRoute<
  P extends ZodTypeAny = Absent,
  Q extends ZodTypeAny = Absent,
  B extends ZodTypeAny = Absent,
  R extends ZodTypeAny = ZodTypeAny,
>(definition: RouteDefinition<P, Q, B, R>): RouteSpec {
  const { handler, ...meta } = definition;
  // Made once per route, not per request.
  const parseQuery = queryParser(definition.query);
  return {
    ...meta,
    // Validation happens here, once, where the schemas still have their types.
    invoke: ({ params, body, c }) =>
      handler({
        params: parseOrThrow(definition.params, params, ''),
        query: parseQuery(c, c.get('lenience')),
        body: parseOrThrow(definition.body, body, definition.bodyName ?? '', c.get('lenience')),
        tenant: c.get('tenant'),
        principal: c.get('principal'),
        c,
      }),
  };
}

/**
 * Every error a route can answer: its own, and those its shape brings at the edge. Derived, so the
 * document cannot forget the 413 of a route that reads a body.
 */
export function routeErrors(route: RouteSpec): ErrorKind[] {
  const reads = route.method !== 'get' && route.method !== 'delete';
  const kinds = new Set<ErrorKind>(route.errors);
  // A malformed parameter, query or body; the strict query refuses unknown keys on every route.
  kinds.add('invalid_request');
  if (!route.public) {
    kinds.add('unauthorized');
    // A new key is a new tenant, refused when the server holds --max-tenants already.
    kinds.add('service_unavailable');
  }
  if (route.path.includes('{')) kinds.add('not_found');
  // Any other method on the route's path answers 405 naming the allowed ones (the path's answer,
  // listed on each of its operations so the document names it at all).
  kinds.add('method_not_allowed');
  if (reads) {
    kinds.add('payload_too_large');
    kinds.add('unsupported_media_type');
  }
  if (route.idempotent) {
    kinds.add('conflict');
    kinds.add('too_many_requests');
  }
  // Fault rules and the Labelmock-Fault header (domain/faults) may answer these on any /v1 or /v2 operation.
  if (route.path.startsWith('/v1/') || route.path.startsWith('/v2/')) {
    for (const kind of INJECTABLE_KINDS) kinds.add(kind);
  }
  return [...kinds];
}

/** The kinds of domain/faults' INJECTABLE_STATUSES (test/faults.test.ts keeps the two in step). */
const INJECTABLE_KINDS: readonly ErrorKind[] = [
  'invalid_request',
  'unauthorized',
  'too_many_requests',
  'internal',
  'bad_gateway',
  'service_unavailable',
  'gateway_timeout',
];
