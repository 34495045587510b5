import type { Context } from 'hono';
import { ZodError } from 'zod';
import { WARNING_HEADER } from '../domain/lenience.js';
import { ApiError, bodyCutOff, bodyTooLarge, internalError, invalidParameters } from '../errors/index.js';

/** The wire body of every error: `{"status_code", "error"}`. */
export function errorBody(status: number, message: string) {
  return { status_code: status, error: message };
}

/** Maps anything thrown to an ApiError; unknown errors are the mock's own bugs, hence 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof ZodError) return invalidParameters(err);
  // An error carrying status 413 (a Hono HTTPException, say, from middleware of its own) is the body limit.
  const status = (err as { status?: unknown })?.status;
  if (typeof status === 'number' && status === 413) return bodyTooLarge();
  // The client went away mid-body (or shutdown cut it off): its mistake or its choice, not a bug of ours.
  if ((err as { code?: unknown })?.code === 'ECONNRESET') return bodyCutOff();
  return internalError(err);
}

/** The single translator installed as the app's onError handler. */
export function toErrorResponse(err: unknown, c: Context) {
  const apiError = toApiError(err);
  // A 500 a fault rule injected (the fault middleware set `fault`) is no bug of the mock: not logged.
  if (apiError.kind === 'internal' && c.get('fault')?.status === undefined) console.error(err);
  // What a lenient read ignored before the error (http/mount-routes.ts), as on any answer the route made.
  const warning: unknown = c.get('warning');
  const headers = typeof warning === 'string' ? { ...apiError.headers, [WARNING_HEADER]: warning } : apiError.headers;
  return c.json(errorBody(apiError.status, apiError.message), apiError.status, headers);
}
