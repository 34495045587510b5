import { z } from 'zod';

/** The body of every error. Clients read only `error`. */
export const ErrorResponseSchema = z.object({
  status_code: z.number().int(),
  error: z.string(),
});
