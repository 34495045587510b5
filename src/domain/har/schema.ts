import { z } from 'zod';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the archive format browsers, Polly.js, WireMock's
 * import and Redocly share: what `labelmock record` writes, `GET /_mock/requests?format=har` answers and
 * `labelmock drift` reads. Only what a recording of an API holds is required here (no pages, no cache
 * entries); custom fields start with an underscore, as the spec allows: labelmock's go under `_labelmock`.
 */

const NameValueSchema = z.object({ name: z.string(), value: z.string(), comment: z.string().optional() });

const PostDataSchema = z.object({
  mimeType: z.string(),
  text: z.string().optional(),
  params: z
    .array(
      z.object({
        name: z.string(),
        value: z.string().optional(),
        fileName: z.string().optional(),
        contentType: z.string().optional(),
      }),
    )
    .optional(),
  comment: z.string().optional(),
});

const HarRequestSchema = z.object({
  method: z.string(),
  url: z.string().describe('Absolute, with the query string.'),
  httpVersion: z.string(),
  cookies: z.array(NameValueSchema),
  headers: z.array(NameValueSchema),
  queryString: z.array(NameValueSchema),
  postData: PostDataSchema.optional(),
  headersSize: z.number().int(),
  bodySize: z.number().int(),
  comment: z.string().optional(),
});

const HarResponseSchema = z.object({
  status: z.number().int(),
  statusText: z.string(),
  httpVersion: z.string(),
  cookies: z.array(NameValueSchema),
  headers: z.array(NameValueSchema),
  content: z.object({
    size: z.number().int(),
    mimeType: z.string(),
    text: z.string().optional(),
    encoding: z.string().optional(),
    comment: z.string().optional(),
  }),
  redirectURL: z.string(),
  headersSize: z.number().int(),
  bodySize: z.number().int(),
  comment: z.string().optional(),
});

/** What labelmock adds to an entry: its journal id, what it checked, what it redacted. */
const HarLabelmockSchema = z
  .object({
    id: z.string().optional().describe('The request journal entry this was made from (req_<n>).'),
    truncated: z.boolean().optional().describe('The journal cut a body, header or query: the entry is partial.'),
    fault: z.unknown().optional().describe('The fault or delay labelmock applied.'),
    warning: z.string().optional().describe('The Labelmock-Warning the request was answered with.'),
    violations: z
      .array(z.string())
      .optional()
      .describe("Where the recorded answer does not fit the interface's documents (labelmock record checks)."),
    redacted: z.array(z.string()).optional().describe('Where labelmock record replaced a secret with REDACTED.'),
  })
  .strict();

const HarEntrySchema = z.object({
  startedDateTime: z.string(),
  time: z.number().min(0),
  request: HarRequestSchema,
  response: HarResponseSchema,
  cache: z.object({}).passthrough(),
  timings: z.object({ send: z.number(), wait: z.number(), receive: z.number() }).passthrough(),
  comment: z.string().optional(),
  _labelmock: HarLabelmockSchema.optional(),
});
export type HarEntry = z.infer<typeof HarEntrySchema>;

export const HarSchema = z
  .object({
    log: z.object({
      version: z.literal('1.2'),
      creator: z.object({ name: z.string(), version: z.string(), comment: z.string().optional() }),
      entries: z.array(HarEntrySchema),
      comment: z.string().optional(),
    }),
  })
  .describe('An HTTP Archive (HAR 1.2): the entries in the order they were made, oldest first.');
