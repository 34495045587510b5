import { z } from 'zod';
import { refinePathPattern } from '../domain/faults/path-pattern.js';
import { HarSchema } from '../domain/har/schema.js';
import { JOURNAL_PATH_CHARS, MAX_JOURNAL_LIMIT } from '../domain/journal/limits.js';
import { JournalClearedSchema, JournalListSchema } from '../domain/journal/schemas.js';
import { jsonStreamResponse } from '../http/json-stream.js';
import { queryInt, queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { harPieces } from '../services/har-journal.js';
import { jsonListPieces } from '../services/json-list-pieces.js';
import { clearRequests, listRequests } from '../services/request-journal.js';

const lastValue = (value: unknown) => (Array.isArray(value) ? value[value.length - 1] : value);

const RequestIdSchema = z.string().regex(/^req_\d{1,15}$/, 'must be a request id such as req_12');

const JournalQuerySchema = z
  .object({
    method: queryString,
    path: z.preprocess(lastValue, z.string().max(JOURNAL_PATH_CHARS).superRefine(refinePathPattern).optional()),
    status: queryInt(100, 599),
    since: z.preprocess(lastValue, RequestIdSchema.optional()),
    before: z.preprocess(lastValue, RequestIdSchema.optional()),
    task_id: z.preprocess(lastValue, z.string().max(100).optional()),
    limit: queryInt(1, MAX_JOURNAL_LIMIT),
    format: z.preprocess(
      lastValue,
      z.enum(['json', 'har']).optional().describe('har: the entries as an HTTP Archive (HAR 1.2), oldest first.'),
    ),
  })
  .strict();

/** GET and DELETE /_mock/requests: the tenant's request journal (http/request-journal.ts records it). */
export function requestJournalRoutes(): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/requests',
      tag: 'Control',
      summary: "The tenant's request journal: what the app sent and what it got, newest first",
      description:
        'Every /v1 request of the tenant, and every unmatched one (unknown route, 405) made with its key, newest ' +
        'first: method, path, query, headers without Authorization and Cookie, body (JSON, or the names and ' +
        'sizes of a multipart form), status, JSON answer, duration and the fault applied. Filters: `method`; ' +
        '`path` (exact, or a glob: `*` within a segment, `**` as a whole segment); `status`; `task_id` (requests ' +
        'whose path or answer names the task); `since` (an entry id: only later entries); `before` (an entry ' +
        'id: only ' +
        `earlier ones, to page back from the last id seen); \`limit\` (1-${MAX_JOURNAL_LIMIT}, all by default). The ` +
        'answer is streamed, a piece per turn of the event loop. The journal keeps the last --journal-size entries ' +
        '(1000 by default) while the tenant holds something (a task, a setting, a fault rule): a new key that has ' +
        'only read is not kept at all, and the journal goes with a tenant that holds nothing else. /_mock calls ' +
        'are never journaled. `format=har` answers the same entries as an HTTP Archive (HAR 1.2), oldest first, ' +
        'for other tools (a browser, Polly.js, WireMock) or `labelmock drift` to replay; the answer headers are not ' +
        'kept, nor the credentials.',
      query: JournalQuerySchema,
      response: z.union([JournalListSchema, HarSchema]),
      errors: [],
      // Streamed: a thousand entries of 16 KiB each must not hold up other tenants while they are written.
      streamed: true,
      handler: ({ tenant, query, c }) =>
        jsonStreamResponse(
          query.format === 'har'
            ? harPieces(listRequests(tenant, query, 'oldest'), new URL(c.req.url).origin)
            : jsonListPieces('requests', listRequests(tenant, query)),
        ),
    }),
    defineRoute({
      method: 'delete',
      path: '/_mock/requests',
      tag: 'Control',
      summary: "Empty the tenant's request journal",
      description: 'Removes every journaled request of the tenant and answers how many; entry ids keep growing.',
      response: JournalClearedSchema,
      errors: [],
      handler: ({ tenant }) => ({ deleted: clearRequests(tenant) }),
    }),
  ];
}
