/**
 * The error module: the catalog of kinds and the one class (errors/catalog.ts), the named message
 * templates every error is built from (errors/templates.ts) and how a zod issue is told
 * (errors/zod-messages.ts). Re-exported here so `../errors.js` stays the one import. The one translator
 * from a thrown error to an answer is the edge's: http/error-answer.ts.
 */

export { ApiError, ERROR_CATALOG, type ErrorKind } from './catalog.js';
export * from './templates.js';
