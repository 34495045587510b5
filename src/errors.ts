/**
 * The error module: the catalog of kinds and the one class (errors/catalog.ts), the named message
 * templates every error is built from (errors/templates.ts), and the single onError translator
 * (errors/translate.ts). Re-exported here so `../errors.js` stays the one import.
 */

export { ApiError, ERROR_CATALOG, type ErrorKind } from './errors/catalog.js';
export * from './errors/templates.js';
export { errorBody, toApiError, toErrorResponse } from './errors/translate.js';
