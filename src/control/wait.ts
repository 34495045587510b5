import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { DEFAULT_WAIT_MS, MAX_WAIT_MS } from '../domain/events/schemas.js';
import { WAIT_FILTERS, WAITABLE_EVENTS, WaitAnswerSchema } from '../domain/events/wait.js';
import { heldRefused, subscriberLimit, waitTimedOut } from '../errors/index.js';
import { clientGone } from '../http/incoming.js';
import { last, queryInt, queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { waitForEvent } from '../services/event-wait.js';
import type { EventBus } from '../services/events.js';

const EVENT_RULE = `must be one of ${WAITABLE_EVENTS.join(', ')} (task_completed reads as task.completed)`;

const filterFields = Object.fromEntries(
  WAIT_FILTERS.map((name) => [name, extendApi(queryString, { description: `Only events whose ${name} is this.` })]),
) as Record<(typeof WAIT_FILTERS)[number], typeof queryString>;

const WaitQuerySchema = z
  .object({
    event: extendApi(
      z.preprocess(
        (value) => (typeof last(value) === 'string' ? String(last(value)).replace('_', '.') : last(value)),
        z.enum(WAITABLE_EVENTS, { errorMap: () => ({ message: EVENT_RULE }) }),
      ),
      {
        type: 'string',
        enum: [...WAITABLE_EVENTS, ...WAITABLE_EVENTS.filter((e) => e.includes('.')).map((e) => e.replace('.', '_'))],
        description: 'The event type to wait for, as the stream names it (task.completed) or with _ (task_completed).',
      },
    ),
    timeout_ms: extendApi(queryInt(1, MAX_WAIT_MS), {
      description: `How long to wait, in real milliseconds (default ${DEFAULT_WAIT_MS}); then 408.`,
    }),
    since: extendApi(queryInt(0, Number.MAX_SAFE_INTEGER), {
      description:
        'An event number (the id of an earlier answer, or of the stream): a matching event numbered after it that ' +
        'already happened answers at once.',
    }),
    ...filterFields,
  })
  .strict();

/** GET /_mock/wait: one matching event, as soon as it happens; no polling loop in the caller's test. */
export function waitRoutes(bus: EventBus): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/wait',
      tag: 'Control',
      summary: 'Wait for one event of the tenant (a completion, a callback attempt, a request), then answer it',
      description:
        'Answers the first event of the given type whose fields equal the filters given (task_id, task_type, ' +
        'status, batch, delivery_id, state, method, path). A task or batch already in the state the event leads to ' +
        '(task.created, task.completed, task.canceled, task.error with task_id; batch.completed with batch) ' +
        'answers at once with id null; with since, a matching event kept from after that number answers at once. ' +
        `Otherwise the request waits, at most timeout_ms (real time, default ${DEFAULT_WAIT_MS}, at most ` +
        `${MAX_WAIT_MS}), then answers 408. A wait holds a subscription: it counts against the per-tenant ` +
        'stream limit and --max-held-requests (503 with Retry-After past them).',
      query: WaitQuerySchema,
      response: WaitAnswerSchema,
      examples: () => ({
        response: {
          id: 7,
          event: {
            type: 'task.completed',
            time: '2026-01-01T00:00:00.000Z',
            task_id: '6798a2f3c1d4e5f6a7b8c9d0',
            task_type: 'imageannotation',
            status: 'completed',
          },
        },
      }),
      errors: ['request_timeout'],
      handler: async ({ tenant, query, c }) => {
        const { since, timeout_ms: timeoutMs = DEFAULT_WAIT_MS, ...criteria } = query;
        const gone = (end: () => void) => {
          const gone = clientGone(c);
          if (gone.aborted) end();
          else gone.addEventListener('abort', end, { once: true });
        };
        const outcome = await waitForEvent(bus, tenant, criteria, { since, timeoutMs, gone });
        if (outcome === 'tenant_limit') throw subscriberLimit(bus.maxPerTenant);
        if (outcome === 'tenant_share' || outcome === 'app_budget') {
          throw heldRefused(outcome, bus.held.maxPerTenant, bus.held.max);
        }
        // A client that left reads nothing: the 408 only ends the request.
        if (outcome === 'timeout' || outcome === 'gone') throw waitTimedOut(query.event, timeoutMs);
        return outcome;
      },
    }),
  ];
}
