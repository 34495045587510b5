/**
 * The error module: the catalog of kinds and the one class (errors/catalog.ts), the named message
 * templates every error is built from (errors/templates.ts), and the single onError translator
 * (errors/translate.ts). Re-exported here so `../errors.js` stays the one import.
 */

export { ApiError, ERROR_CATALOG, type ErrorKind } from './catalog.js';
export * from './templates.js';
export { errorBody, toApiError, toErrorResponse } from './translate.js';
