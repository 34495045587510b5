import type { ZodError } from 'zod';
import { ApiError, ERROR_CATALOG, type ErrorKind } from './catalog.js';
import { describeZodIssues } from './zod-messages.js';

/**
 * The named message templates: every error the mock sends is built by one of these, so a message
 * names the field (or the thing) and the rule it broke in one wording, never a hand-written prefix.
 * `field` is the path as the client wrote it (`params.geometries.box[0]`); `rule` reads after it.
 */

// 400 invalid_request: the real service's wording is `Parameter is invalid, reason: ...`.
const PARAMETER_INVALID = 'Parameter is invalid, reason: ';

export const invalidParameter = (field: string, rule: string) =>
  new ApiError('invalid_request', `${PARAMETER_INVALID}"${field}" ${rule}`);

/** A rule that spans fields (or lists several reasons); `reason` quotes the fields it names. */
export const invalidCombination = (reason: string) => new ApiError('invalid_request', PARAMETER_INVALID + reason);

/** None of the fields that name a thing was given: `one of "project_id" or "project_name" is required`. */
export const selectorMissing = (fields: readonly string[]) =>
  invalidCombination(`one of ${fields.map((f) => `"${f}"`).join(', ')} is required`);

/** Two fields that name the same thing name different ones. */
export const selectorsDisagree = (first: string, second: string, why: string) =>
  invalidCombination(`"${first}" and "${second}" ${why}`);

/** Every zod issue as `"field" rule`, the first few of them. */
export const invalidParameters = (error: ZodError, root = '') => invalidCombination(describeZodIssues(error, root));

/** A forced completion's response broke a rule of its task; `reasons` name the fields. */
export const responseDoesNotFit = (reasons: string) =>
  new ApiError('invalid_request', `Response does not fit the task, reason: ${reasons}`);

/**
 * An operation the object's current state forbids: `subject` and `state` read as a sentence, then the
 * rule: `Project "p" has type chat; task templates exist for ...`.
 */
export const wrongState = (subject: string, state: string, rule: string) =>
  new ApiError('invalid_request', `${subject} ${state}; ${rule}`);

/** `Task t_1 is completed; only pending tasks can be canceled`. */
export const taskStatusForbids = (taskId: string, status: string, allowed: string, action: string) =>
  wrongState(`Task ${taskId}`, `is ${status}`, `only ${allowed} tasks can be ${action}`);

/** A type name the mock does not know (a task type in the path, a dependent's type). */
export const unsupportedType = (kind: string, name: string, supported?: readonly string[]) =>
  new ApiError(
    'invalid_request',
    `${kind} "${name}" is not supported${supported ? `; supported types: ${supported.join(', ')}` : ''}`,
  );

export const malformedBody = (format: 'JSON' | 'multipart/form-data' | 'form-urlencoded', why: string) =>
  new ApiError('invalid_request', `Request body is not valid ${format}: ${why}`);

/** A multipart route sent something else (JSON, a form-urlencoded body, no body type at all). */
export const notMultipart = (expected: string, contentType: string) =>
  new ApiError(
    'invalid_request',
    `This route takes multipart/form-data (${expected}); got ${contentType || 'no Content-Type'}`,
  );

export const bodyCutOff = () =>
  new ApiError('invalid_request', 'Request body was cut off: the connection closed before the body ended');

export const invalidIdempotencyKey = (maxLength: number) =>
  new ApiError('invalid_request', `Idempotency-Key header must be 1 to ${maxLength} characters`);

/** An error from a nested step, told where it happened: `In defs[0]: ...`. Kind and headers are kept. */
export const inContext = (where: string, err: ApiError) =>
  new ApiError(err.kind, `${where}: ${err.message}`, err.headers);

// 401 unauthorized
/** Why a request's key was refused: each cause says what went wrong and how to fix it. */
export type UnauthorizedCause = 'missing' | 'malformed' | 'unknown_open' | 'unknown_strict';

const UNAUTHORIZED: Record<UnauthorizedCause, string> = {
  missing:
    'no API key: send it as the HTTP Basic user name with an empty password (curl -u test_demo: ...), ' +
    'or as Authorization: Bearer <key>',
  malformed:
    'the Authorization header is neither Basic (base64 of "<key>:"), Bearer <key> nor a bare key; ' +
    'send the key as the HTTP Basic user name with an empty password',
  unknown_open:
    'this key is not one labelmock accepts: keys look like test_<name> or live_<name> (or <name>|test, ' +
    '<name>|live), <name> being 1 to 128 of A-Z a-z 0-9 _ -',
  unknown_strict: 'this key is not in the keys file the server was started with (--keys): use one of the keys it lists',
};

/** `challenge: false` leaves out WWW-Authenticate, whose Basic challenge makes a browser pop its sign-in dialog. */
export const unauthorized = (cause: UnauthorizedCause = 'missing', challenge = true) =>
  new ApiError(
    'unauthorized',
    `Unauthorized: ${UNAUTHORIZED[cause]}`,
    challenge ? { 'WWW-Authenticate': 'Basic realm="labelmock"' } : {},
  );

// 404 not_found
/** `Project "p" not found`, or with a scope: `Labeler group "g" not found in project "p"`. */
export const notFound = (kind: string, id: string, scope?: string) =>
  new ApiError('not_found', `${kind} "${id}" not found${scope ? ` in ${scope}` : ''}`);

/** A reference inside a body that names nothing: `Batch not found: "batches[0].name" "b"`. */
export const referenceNotFound = (kind: string, field: string, detail: string) =>
  new ApiError('not_found', `${kind} not found: "${field}" ${detail}`);

/** A keyless link (a results file) that names another shard than the one it reached: the router sent it astray. */
export const otherShard = (kind: string, id: string, named: string, self: string | undefined) => {
  const here = self === undefined ? 'no shard (started without --shard-id)' : `shard "${self}"`;
  return new ApiError(
    'not_found',
    `${kind} "${id}" not found here: its link names shard "${named}", and this server is ${here}. ` +
      'Route ?shard= to that shard.',
  );
};

/** GET /_mock/tls/ca.pem on a server that has no CA of its own (plain HTTP, or the user's certificate). */
export const noTlsCa = (reason: string) =>
  new ApiError('not_found', `No CA certificate here: ${reason}. Start labelmock with --tls to have one.`);

/** The real service's fixed text for an unknown task id (its clients match on it). */
export const taskNotFound = () => new ApiError('not_found', 'Task with that ID not found.');

/** An imported file only has the URL it was imported with. */
export const fileHasNoContent = (id: string, url: string | undefined) =>
  new ApiError(
    'not_found',
    `File "${id}" was imported${url ? ` from ${url}` : ''}; the mock never fetches imported URLs, ` +
      'so it has no content to serve',
  );

export const noRoute = (method: string, path: string, suggestion?: string) =>
  new ApiError(
    'not_found',
    `No route ${method} ${path}; ${suggestion ? `did you mean ${suggestion}? ` : ''}` +
      'see GET /openapi.json for the routes',
  );

// 405 method_not_allowed
export const methodNotAllowed = (method: string, path: string, allowed: readonly string[]) =>
  new ApiError('method_not_allowed', `Method ${method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`, {
    Allow: allowed.join(', '),
  });

// 409 conflict
/** `A batch named "b1" already exists in this account`. */
export const alreadyExists = (kind: string, name: string, scope: string) =>
  new ApiError('conflict', `A ${kind} named "${name}" already exists in ${scope}`);

/** A unique value held by another object: `A task with unique_id "u" already exists: t_1`. */
export const alreadyHeld = (kind: string, field: string, value: string, holderId: string) =>
  new ApiError('conflict', `A ${kind} with ${field} "${value}" already exists: ${holderId}`);

export const idempotencyKeyReused = (key: string, how: 'by a different user' | 'with different parameters') =>
  new ApiError('conflict', `Idempotency-Key "${key}" was already used ${how}`);

// 413 payload_too_large
export const bodyTooLarge = (limitBytes?: number) =>
  new ApiError(
    'payload_too_large',
    limitBytes === undefined
      ? 'Request body is too large'
      : `Request body is larger than the limit of ${limitBytes} bytes`,
  );

/** An upload part over its limit; the real service words the file's own limit as a parameter rule. */
export const uploadPartTooLarge = (field: string, limit: string) =>
  new ApiError(
    'payload_too_large',
    field === 'file'
      ? `${PARAMETER_INVALID}"file" must be at most ${limit}`
      : `${PARAMETER_INVALID}"${field}" is larger than the upload limit of ${limit}`,
  );

export const fileQuotaExceeded = (heldBytes: number, addedBytes: number, limitBytes: number) =>
  new ApiError(
    'payload_too_large',
    `File storage limit reached: ${addedBytes} more bytes would bring this tenant's uploaded files to ` +
      `${heldBytes + addedBytes} bytes, over the limit of ${limitBytes} bytes per tenant ` +
      '(--max-file-bytes-per-tenant, LABELMOCK_MAX_FILE_BYTES_PER_TENANT); POST /_mock/reset frees them',
  );

// 408 request_timeout
export const waitTimedOut = (event: string, timeoutMs: number) =>
  new ApiError(
    'request_timeout',
    `No ${event} event matching the filters came within timeout_ms (${timeoutMs} ms); ` +
      'check the filters, or wait longer (timeout_ms)',
  );

// 415 unsupported_media_type
export const unsupportedMediaType = (contentType: string) =>
  new ApiError(
    'unsupported_media_type',
    `Request body must be JSON (Content-Type: application/json); got ${contentType}`,
  );

// 429 too_many_requests
export const idempotencyInFlight = (key: string) =>
  new ApiError('too_many_requests', `A request with Idempotency-Key "${key}" is still in progress; retry shortly`, {
    'Retry-After': '1',
  });

/** The tenant's rate limit (PATCH /_mock/settings rate_limit, --rate-limit) is spent until its window ends. */
export const rateLimited = (limit: number, perSeconds: number, retryAfterS: number, headers: Record<string, string>) =>
  new ApiError(
    'too_many_requests',
    `Rate limit exceeded: this key's tenant may make ${limit} requests per ${perSeconds} s ` +
      `(rate_limit in PATCH /_mock/settings, --rate-limit); retry after ${retryAfterS} s`,
    { ...headers, 'Retry-After': String(retryAfterS) },
  );

// 500 internal
export const internalError = (err: unknown) =>
  new ApiError('internal', `Internal error: ${(err as Error)?.message ?? String(err)}`);

// 503 service_unavailable
export const tenantLimit = (max: number) =>
  new ApiError(
    'service_unavailable',
    `Tenant limit reached: this server already holds ${max} tenants (--max-tenants, LABELMOCK_MAX_TENANTS). ` +
      'Keys that already have a tenant keep working; POST /_mock/reset with one of them frees its tenant.',
  );

/** With --data-dir: the change could not be made durable (disk full, permissions); it was not kept. */
export const notDurable = (reason: string) =>
  new ApiError(
    'service_unavailable',
    `The change could not be saved to the data directory (${reason}); it was not applied. Retry once the disk ` +
      'has room and the directory is writable.',
    { 'Retry-After': '1' },
  );

/** The self-check (LABELMOCK_SELF_CHECK=strict) found an answer its OpenAPI document does not describe. */
export const selfCheckFailed = (summary: string) =>
  new ApiError('internal', `Self-check failed: the answer disagrees with the OpenAPI document: ${summary}`);

// Any injectable status: a fault rule (POST /_mock/faults) or the Labelmock-Fault header asked for it.
const kindWithStatus = (status: number): ErrorKind =>
  (Object.keys(ERROR_CATALOG) as ErrorKind[]).find((kind) => ERROR_CATALOG[kind].status === status) ?? 'internal';

/**
 * An injected error answer, in the standard body: `Injected fault: 503 by rule <id>` unless the rule gives its
 * own message. 429 and 503 carry `Retry-After` (seconds), as a real service's would.
 */
export const injectedFault = (status: number, source: string, message?: string, retryAfterS?: number) =>
  new ApiError(
    kindWithStatus(status),
    message ?? `Injected fault: ${status} by ${source}`,
    retryAfterS === undefined ? {} : { 'Retry-After': String(retryAfterS) },
  );

/** GET /_mock/events past the subscribers one tenant may have at once (a 503: a capacity limit, as --max-tenants). */
export const subscriberLimit = (max: number) =>
  new ApiError(
    'service_unavailable',
    `Event stream limit reached: this tenant already has ${max} subscribers to GET /_mock/events; ` +
      'close one first.',
    { 'Retry-After': '1' },
  );

/**
 * An app-wide budget is spent (held connections, journal or upload memory): per-tenant caps multiply by the
 * number of keys, so these keep one client's many keys from exhausting the process for everyone.
 */
export const appBudgetSpent = (what: string, limit: string, flag: string) =>
  new ApiError(
    'service_unavailable',
    `Server busy: ${what} (${limit}, ${flag}); retry later. Other requests are still answered.`,
    { 'Retry-After': '1' },
  );

/** --max-held-requests: event streams and delayed or hanging requests, app-wide, and one tenant's share of it. */
const heldRequestsSpent = (max: number) =>
  appBudgetSpent(
    `the server already holds ${max} long-lived requests (event streams, delayed or hanging requests)`,
    `${max} at once`,
    '--max-held-requests',
  );

const heldShareSpent = (share: number, max: number) =>
  new ApiError(
    'service_unavailable',
    `Server busy: this key's tenant already holds ${share} long-lived requests (event streams, delayed or ` +
      `hanging requests), its share: a quarter of --max-held-requests ${max}; retry later, or end one of them. ` +
      'Other tenants are still answered.',
    { 'Retry-After': '1' },
  );

/** The 503 for a refused hold: the tenant's share, or the app's budget. */
export const heldRefused = (refusal: 'tenant_share' | 'app_budget', share: number, max: number) =>
  refusal === 'tenant_share' ? heldShareSpent(share, max) : heldRequestsSpent(max);

/** `labelmock record`: a request it will not forward (it forwards origin-form paths to its target only). */
export const notForwarded = (why: string) =>
  new ApiError('invalid_request', `labelmock record does not forward this request: ${why}`);

/** `labelmock record`: the target did not answer. */
export const targetUnreachable = (origin: string, reason: string) =>
  new ApiError('bad_gateway', `labelmock record could not reach ${origin}: ${reason}`);
