import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one catalog of error kinds. Every error the mock sends leaves through `toErrorResponse`
 * with the status named here; no handler builds an error body itself.
 */
export const ERROR_CATALOG = {
  invalid_request: { status: 400, summary: 'A parameter is missing or invalid, or the state forbids the operation.' },
  unauthorized: { status: 401, summary: 'The API key is missing or not accepted.' },
  not_found: { status: 404, summary: 'The resource or route does not exist (or belongs to another tenant).' },
  method_not_allowed: {
    status: 405,
    summary: 'The path exists, but not for the method used (any other method on this path answers this).',
  },
  request_timeout: {
    status: 408,
    summary: 'GET /_mock/wait: no matching event came within timeout_ms.',
  },
  conflict: {
    status: 409,
    summary: 'A unique name or id is already used, or an Idempotency-Key was reused with other parameters.',
  },
  payload_too_large: { status: 413, summary: 'The request body exceeds the size limit.' },
  unsupported_media_type: { status: 415, summary: 'The body is not JSON where JSON is expected.' },
  too_many_requests: {
    status: 429,
    summary:
      "A matching request with the same Idempotency-Key is still in flight, the tenant's rate limit is spent, " +
      'or a fault rule injected it; retry later (Retry-After).',
  },
  internal: { status: 500, summary: 'A bug in the mock (please report it), or injected by a fault rule.' },
  // 502 and 504 are never the mock's own answers: fault rules (POST /_mock/faults) inject them.
  bad_gateway: { status: 502, summary: 'A gateway in front of the service failed; injected by a fault rule.' },
  service_unavailable: {
    status: 503,
    summary:
      'The server is at a capacity limit (e.g. --max-tenants) for this request, could not save a change to its ' +
      '--data-dir (nothing was applied), or a fault rule injected it; retry later.',
  },
  gateway_timeout: { status: 504, summary: 'A gateway in front of the service timed out; injected by a fault rule.' },
} as const satisfies Record<string, { status: number; summary: string }>;

export type ErrorKind = keyof typeof ERROR_CATALOG;

/** The one error class. Build it through a named template (errors/templates.ts), never by hand. */
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
