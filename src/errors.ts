import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import { describeZodError } from './domain/zod-messages.js';

/**
 * The one catalog of error kinds. Every error the mock sends leaves through `toErrorResponse`
 * with the status named here; no handler builds an error body itself.
 */
export const ERROR_CATALOG = {
  invalid_request: { status: 400, summary: 'A parameter is missing or invalid, or the state forbids the operation.' },
  unauthorized: { status: 401, summary: 'The API key is missing or not accepted.' },
  payment_required: { status: 402, summary: 'The task type is not enabled for the account.' },
  not_found: { status: 404, summary: 'The resource or route does not exist (or belongs to another tenant).' },
  method_not_allowed: { status: 405, summary: 'The route exists but not for this HTTP method.' },
  conflict: {
    status: 409,
    summary: 'A unique name or id is already used, or an Idempotency-Key was reused with other parameters.',
  },
  payload_too_large: { status: 413, summary: 'The request body exceeds the size limit.' },
  unsupported_media_type: { status: 415, summary: 'The body is not JSON where JSON is expected.' },
  too_many_requests: {
    status: 429,
    summary: 'A matching request with the same Idempotency-Key is still in flight; retry later.',
  },
  internal: { status: 500, summary: 'A bug in the mock. Please report it.' },
  service_unavailable: {
    status: 503,
    summary: 'The server is at a capacity limit (e.g. --max-tenants) for this request.',
  },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorKind = keyof typeof ERROR_CATALOG;

export class ApiError extends Error {
  readonly kind: ErrorKind;
  readonly status: ContentfulStatusCode;
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.kind = kind;
    this.status = ERROR_CATALOG[kind].status as ContentfulStatusCode;
    this.headers = headers;
  }
}

/**
 * Named message templates: a client error names the field and the rule it broke. `field` is the
 * path as the client wrote it (`params.geometries.box[0]`), `rule` reads after it ("must be ...").
 */
export const invalidParameter = (field: string, rule: string) =>
  new ApiError('invalid_request', `Parameter is invalid, reason: "${field}" ${rule}`);
/** A rule that spans fields; `reason` quotes the fields it names. */
export const invalidCombination = (reason: string) =>
  new ApiError('invalid_request', `Parameter is invalid, reason: ${reason}`);

/** Shorthands that read like the rule they enforce. */
export const invalid = (message: string) => new ApiError('invalid_request', message);
export const notFound = (message: string) => new ApiError('not_found', message);
export const conflict = (message: string) => new ApiError('conflict', message);

/** The wire body of every error: `{"status_code", "error"}`. */
export function errorBody(status: number, message: string) {
  return { status_code: status, error: message };
}

/** Maps anything thrown to an ApiError; unknown errors are the mock's own bugs, hence 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return invalid(describeZodError(err));
  // Hono's HTTPException (e.g. from bodyLimit) carries a status we keep when it is a client error.
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status === 413) {
    return new ApiError('payload_too_large', (err as Error).message || 'Request body is too large');
  }
  // The client went away mid-body (or shutdown cut it off): its mistake or its choice, not a bug of ours.
  if ((err as { code?: unknown })?.code === 'ECONNRESET') {
    return invalid('Request body was cut off: the connection closed before the body ended');
  }
  return new ApiError('internal', `Internal error: ${(err as Error)?.message ?? String(err)}`);
}

/** The single translator installed as the app's onError handler. */
export function toErrorResponse(err: unknown, c: Context) {
  const apiError = toApiError(err);
  if (apiError.kind === 'internal') console.error(err);
  return c.json(errorBody(apiError.status, apiError.message), apiError.status, apiError.headers);
}
