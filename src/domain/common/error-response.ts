import { z } from 'zod';

/** The body of every error. Clients read only `error`. */
export const ErrorResponseSchema = z.object({
  status_code: z.number().int(),
  error: z.string(),
});

/**
 * Its component name in the documents: not `Error`, which generated TypeScript would declare over the global
 * Error class (and likewise the file record is `FileRecord`, not `File`). The self-check finds it by this name.
 */
export const ERROR_SCHEMA = 'ErrorResponse';
