import { z } from 'zod';
import { AppliedFaultSchema } from '../faults/schemas.js';
import {
  JOURNAL_BODY_CHARS,
  JOURNAL_HEADER_CHARS,
  JOURNAL_MAX_PARTS,
  JOURNAL_PATH_CHARS,
  JOURNAL_QUERY_CHARS,
} from './limits.js';

const JournalPartSchema = z
  .object({
    name: z.string().describe('The form field name.'),
    filename: z.string().optional().describe('The file name a file part gave.'),
    bytes: z.number().int().min(0).describe('Bytes of the part as read (a refused upload: as far as it was read).'),
  })
  .strict();
export type JournalPart = z.infer<typeof JournalPartSchema>;

const JournalEntrySchema = z
  .object({
    id: z.string().describe('`req_<n>`, growing with each entry of the tenant; `since` takes one.'),
    time: z.string().describe("When the answer was ready, on the tenant's virtual clock (ISO 8601)."),
    method: z.string(),
    path: z.string().describe(`The request path, cut at ${JOURNAL_PATH_CHARS} characters.`),
    query: z
      .record(z.array(z.string()))
      .describe(`Each query key with all its values, ${JOURNAL_QUERY_CHARS} characters at most in all.`),
    headers: z
      .record(z.string())
      .describe(
        `Request headers (lower-case names) without Authorization and Cookie, ${JOURNAL_HEADER_CHARS} characters ` +
          'at most in all.',
      ),
    body: z
      .unknown()
      .describe(
        'The request body: the JSON value when it parses, else its text; cut at ' +
          `${JOURNAL_BODY_CHARS} characters (then always the text, and \`truncated\`). null when there was ` +
          'none, or for a multipart body (see `parts`).',
      ),
    parts: z
      .array(JournalPartSchema)
      .max(JOURNAL_MAX_PARTS)
      .optional()
      .describe(`A multipart body: its parts' names and sizes (the first ${JOURNAL_MAX_PARTS}), never their bytes.`),
    status: z.number().int().describe('The status answered (0 when the connection was dropped by a fault).'),
    response_body: z
      .unknown()
      .describe(
        `The JSON answer (cut at ${JOURNAL_BODY_CHARS} characters, then its text); null for other media types.`,
      ),
    duration_ms: z.number().min(0).describe('Real time from the request to its answer, faults and delays included.'),
    truncated: z.boolean().describe('Whether any of path, query, headers, body, parts or response_body was cut.'),
    fault: AppliedFaultSchema.optional().describe('The fault or delay applied, when one was.'),
    warning: z
      .string()
      .optional()
      .describe(
        'The Labelmock-Warning header answered: the parameters a lenient read ignored (settings.unknown_params).',
      ),
  })
  .strict();
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export const JournalListSchema = z
  .object({ requests: z.array(JournalEntrySchema) })
  .strict()
  .describe("The tenant's journaled requests, newest first.");

export const JournalClearedSchema = z
  .object({ deleted: z.number().int().min(0) })
  .strict()
  .describe('How many entries were removed.');
