import type { OpenAPIObject } from 'openapi3-ts/oas31';
import { parsedProblems } from './body-problems.js';
import { operationMatcher } from './match.js';
import { compileErrorSchema, compileOperations } from './operations.js';

/** An answer made elsewhere (the real service's, recorded): what a recording keeps of it. */
export interface RecordedAnswer {
  method: string;
  /** The path without the query. */
  path: string;
  status: number;
  mediaType: string;
  text: string;
}

/**
 * Checks answers another server gave against labelmock's documents, as the self-check checks labelmock's own:
 * the status is documented for the operation and a JSON body fits its schema (`labelmock record` keeps what
 * it finds with each entry). Compiled once per checker.
 */
export function answerChecker(documents: OpenAPIObject[]): (answer: RecordedAnswer) => string[] {
  const find = operationMatcher(compileOperations(documents));
  const errorBody = compileErrorSchema(documents);
  return ({ method, path, status, mediaType, text }) => {
    const operation = find(method.toLowerCase(), path);
    const json = mediaType === 'application/json';
    if (!operation) {
      if (status >= 400 && json) return parsedProblems(errorBody, text).map((p) => `error body ${p}`);
      return [`no documented operation is ${method.toUpperCase()} ${path}`];
    }
    const where = ` (${operation.method.toUpperCase()} ${operation.template})`;
    const answer = operation.response(status, mediaType);
    if (!answer.documented) return [`status ${status} (${mediaType || 'no body'}) is not documented${where}`];
    if (!answer.validate || !json) return [];
    return parsedProblems(answer.validate, text).map((p) => `${p}${where}`);
  };
}

/** The documented template of a request's path (`/v1/task/{taskId}`), or undefined for an undocumented one. */
export function templateFinder(documents: OpenAPIObject[]): (method: string, path: string) => string | undefined {
  const find = operationMatcher(compileOperations(documents));
  return (method, path) => find(method.toLowerCase(), path)?.template;
}
