import {
  type ApiError,
  alreadyHeld,
  bodyTooLarge,
  ERROR_CATALOG,
  type ErrorKind,
  idempotencyInFlight,
  injectedFault,
  internalError,
  invalidParameter,
  methodNotAllowed,
  taskNotFound,
  tenantLimit,
  unauthorized,
  unsupportedMediaType,
} from '../errors/index.js';

/**
 * A sample error per kind for the documents' error examples, made by the message templates the
 * server uses (src/errors/templates.ts), so the wording is the real one.
 */
const SAMPLES: Partial<Record<ErrorKind, () => ApiError>> = {
  invalid_request: () => invalidParameter('attachment', 'is required'),
  unauthorized: () => unauthorized(),
  not_found: () => taskNotFound(),
  method_not_allowed: () => methodNotAllowed('PATCH', '/v1/tasks', ['GET']),
  conflict: () => alreadyHeld('task', 'unique_id', 'kitchen-0001', '5c84d0fe9585930000000001'),
  payload_too_large: () => bodyTooLarge(10_000_000),
  unsupported_media_type: () => unsupportedMediaType('text/plain'),
  too_many_requests: () => idempotencyInFlight('create-kitchen-0001'),
  internal: () => internalError(new Error('example')),
  bad_gateway: () => injectedFault(502, 'rule 5f1e2d3c4b5a697887766554'),
  service_unavailable: () => tenantLimit(1000),
  gateway_timeout: () => injectedFault(504, 'rule 5f1e2d3c4b5a697887766554'),
};

/** The example body of an error kind: its catalog status and a real message. */
export function errorExample(kind: ErrorKind): { status_code: number; error: string } {
  const { status, summary } = ERROR_CATALOG[kind];
  // A kind no template sends yet (payment_required) shows the catalog's own words.
  return { status_code: status, error: SAMPLES[kind]?.().message ?? summary };
}
