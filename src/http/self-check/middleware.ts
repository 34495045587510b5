import type { ErrorObject, ValidateFunction } from 'ajv';
import type { Context, MiddlewareHandler } from 'hono';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { withoutPaths } from '../../domain/lenience.js';
import { selfCheckFailed } from '../../errors/index.js';
import type { AppEnv } from '../env.js';
import { toErrorResponse } from '../error-answer.js';
import { queryValues } from '../query-parser.js';
import { describe, parsedProblems } from './body-problems.js';
import { operationMatcher } from './match.js';
import { type CheckedOperation, compileErrorSchema, compileOperations } from './operations.js';

/** `strict`: a mismatch answers 500 naming it (tests); `log`: it is printed and the answer goes out. */
export type SelfCheckMode = 'off' | 'log' | 'strict';

interface Checker {
  find(method: string, path: string): CheckedOperation | undefined;
  errorBody: ValidateFunction;
}

/**
 * Compiled once per process for each set of documented routes: every app of a test run documents the
 * same routes, and compiling per app would cost more than the app. The key names the routes.
 */
const checkers = new Map<string, Checker>();

function checkerFor(key: string, documents: () => OpenAPIObject[]): Checker {
  let checker = checkers.get(key);
  if (!checker) {
    const docs = documents();
    checker = { find: operationMatcher(compileOperations(docs)), errorBody: compileErrorSchema(docs) };
    checkers.set(key, checker);
  }
  return checker;
}

/**
 * Checks every answer against the OpenAPI documents: its status is documented for the operation, its
 * body matches the documented schema, and a request the server accepted is one the document allows.
 * What the document says and what the server does can then not drift apart unnoticed.
 */
export function selfCheck(
  mode: SelfCheckMode,
  key: string,
  documents: () => OpenAPIObject[],
  /** `get /_mock/state`-style keys of operations that stream their answer: checked as it passes, not held. */
  streamed: ReadonlySet<string> = new Set(),
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    // A dropped or hanging connection (a fault rule's reset or hang), or a client gone, gets no answer to check.
    const applied = c.get('fault');
    if (applied?.fault || applied?.client_gone) return;
    const checker = checkerFor(key, documents);
    const operation = checker.find(c.req.method.toLowerCase(), c.req.path);
    const streams = operation !== undefined && streamed.has(`${operation.method} ${operation.template}`);
    const problems = await findProblems(checker, c, operation, !streams);
    const summary = (found: string[]) => `${c.req.method} ${c.req.path} answered ${c.res.status}: ${found.join('; ')}`;
    if (problems.length > 0) {
      if (mode === 'log') console.error(`labelmock self-check: ${summary(problems)}`);
      else replace(c, toErrorResponse(selfCheckFailed(summary(problems)), c));
      return;
    }
    const validate = operation && streams ? jsonValidator(operation, c.res) : undefined;
    if (validate)
      replace(
        c,
        checkedStream(c.res, validate, (found) => reportLate(mode, summary(found))),
      );
  };
}

/** Unset first: Hono merges a replaced response's headers (a stale Content-Length among them). */
function replace(c: Context<AppEnv>, res: Response): void {
  c.res = undefined;
  c.res = res;
}

const mediaTypeOf = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';

function jsonValidator(operation: CheckedOperation, res: Response): ValidateFunction | undefined {
  const mediaType = mediaTypeOf(res);
  return mediaType === 'application/json' ? operation.response(res.status, mediaType).validate : undefined;
}

/** Found once the stream has gone out: printed, and in strict mode the stream is broken so the reader fails. */
function reportLate(mode: SelfCheckMode, summary: string): Error | undefined {
  console.error(`labelmock self-check: ${summary}`);
  return mode === 'strict' ? new Error(`Self-check failed: ${summary}`) : undefined;
}

/**
 * The answer passed through as it is written (its pieces keep their timing), kept aside and checked
 * when it ends. Only in self-check mode: the copy costs the answer's size.
 */
function checkedStream(res: Response, validate: ValidateFunction, mismatch: (found: string[]) => Error | undefined) {
  if (!res.body) return res;
  const pieces: Uint8Array[] = [];
  const passed = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(piece, controller) {
        pieces.push(piece);
        controller.enqueue(piece);
      },
      flush(controller) {
        const found = parsedProblems(validate, Buffer.concat(pieces).toString('utf8'));
        const failure = found.length > 0 ? mismatch(found) : undefined;
        if (failure) controller.error(failure);
      },
    }),
  );
  return new Response(passed, { status: res.status, headers: res.headers });
}

async function findProblems(
  checker: Checker,
  c: Context<AppEnv>,
  operation: CheckedOperation | undefined,
  readBody: boolean,
): Promise<string[]> {
  const status = c.res.status;
  const mediaType = mediaTypeOf(c.res);
  if (!operation) {
    // Unknown routes and 405s answer the common error body; undocumented pages (/, /docs) are free.
    if (status < 400 || mediaType !== 'application/json') return [];
    return (await bodyProblems(checker.errorBody, c.res)).map((p) => `error body ${p}`);
  }
  const problems: string[] = [];
  const answer = operation.response(status, mediaType);
  if (!answer.documented) problems.push(`status ${status} (${mediaType || 'no body'}) is not documented`);
  // JSON answers only: a stream of another type (text/event-stream) may never end, so it is not read.
  else if (readBody && answer.validate && mediaType === 'application/json') {
    problems.push(...(await bodyProblems(answer.validate, c.res)));
  }
  if (status < 300) problems.push(...(await requestProblems(operation, c)));
  return problems.map((p) => `${p} (${operation.method.toUpperCase()} ${operation.template})`);
}

const bodyProblems = async (validate: ValidateFunction, res: Response) =>
  parsedProblems(validate, await res.clone().text());

/** The rules a single value broke, without the path of its wrapper. */
const ruleOf = (errors: ErrorObject[] | null | undefined) =>
  [...new Set((errors ?? []).map((e) => e.message ?? 'is invalid'))].join(', ');

/**
 * Each documented parameter the request sent must be valid: as the single value the server reads
 * (the last, for a repeated key), or as the list of every value, for parameters that take lists.
 */
function queryProblems(operation: CheckedOperation, sent: Record<string, string[]>): string[] {
  const problems: string[] = [];
  for (const parameter of operation.query()) {
    const values = sent[parameter.name];
    if (values === undefined || values.length === 0) {
      if (parameter.required) problems.push(`the query was accepted without "${parameter.name}", which it requires`);
      continue;
    }
    const last = values[values.length - 1] as string;
    // What the server reads besides the key repeated: a comma-joined list (the descriptions say so). Flags
    // are checked as sent: the document lists the words the server reads (True/False included).
    const split = values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v !== '');
    const candidates: unknown[] = [last, ...(values.length > 1 ? [values] : []), split];
    if (candidates.some((value) => parameter.validate({ value }))) continue;
    problems.push(
      `the query was accepted, but the document forbids it: "${parameter.name}" ${ruleOf(parameter.validate.errors)}`,
    );
  }
  return problems;
}

/** An accepted request must be one the document allows: otherwise the document forbids what the server does. */
async function requestProblems(operation: CheckedOperation, c: Context<AppEnv>): Promise<string[]> {
  const problems = queryProblems(operation, queryValues(c));
  const validateBody = operation.requestBody();
  if (!validateBody || /multipart/i.test(c.req.header('content-type') ?? '')) return problems;
  // The route read the body through c.req.text(), which keeps it: this reads no stream twice.
  const text = await c.req.text();
  if (text.trim() === '') {
    if (operation.bodyRequired) problems.push('a request without a body was accepted, but the document requires one');
    return problems;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return problems;
  }
  // The body as the server read it: keys a lenient read ignored (and named in Labelmock-Warning) are not in it.
  body = withoutPaths(body, c.get('lenience')?.ignoredPaths ?? []);
  if (!validateBody(body)) {
    problems.push(`the request body was accepted, but the document forbids it: ${describe(validateBody.errors)}`);
  }
  return problems;
}
