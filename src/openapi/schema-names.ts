/**
 * The error body's component: not `Error`, which generated TypeScript would declare over the global
 * Error class (and likewise the file record is `FileRecord`, not `File`).
 */
export const ERROR_SCHEMA = 'ErrorResponse';
