import { z } from 'zod';
import { CallbackJournalSchema } from '../domain/callbacks/schemas.js';
import { jsonStreamResponse } from '../http/json-stream.js';
import { queryInt, queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { listDeliveries, MAX_CALLBACK_PAGE } from '../services/callback-journal.js';
import { jsonListPieces } from '../services/json-list-pieces.js';

const CallbackJournalQuerySchema = z
  .object({
    task_id: queryString,
    batch: queryString,
    after: queryString,
    limit: queryInt(1, MAX_CALLBACK_PAGE),
  })
  .strict();

/** GET /_mock/callbacks: the tenant's callback delivery journal. */
export function callbackJournalRoute(): RouteSpec {
  return defineRoute({
    method: 'get',
    path: '/_mock/callbacks',
    tag: 'Control',
    summary: 'The callback journal: every delivery with each attempt, oldest first',
    description:
      "Every callback delivery of the tenant, with each attempt's status and timing, oldest first; filter by " +
      '`task_id` or `batch`. Paged with `limit` (1-' +
      `${MAX_CALLBACK_PAGE}, all by default) and \`after\` (a delivery id: only deliveries journaled after it). ` +
      'The answer is streamed, a piece per turn of the event loop, so a journal of large task bodies never ' +
      'holds up other requests.',
    query: CallbackJournalQuerySchema,
    response: CallbackJournalSchema,
    errors: [],
    streamed: true,
    handler: ({ tenant, query }) => jsonStreamResponse(jsonListPieces('deliveries', listDeliveries(tenant, query))),
  });
}
