import { streamSSE } from 'hono/streaming';
import { KEEP_ALIVE_MS, MockEventSchema } from '../domain/events/schemas.js';
import { heldRefused, subscriberLimit } from '../errors/index.js';
import { clientGone } from '../http/incoming.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { EventBus, Subscription } from '../services/events.js';

/** GET /_mock/events: the tenant's server-sent events. */
export function eventRoutes(bus: EventBus): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/_mock/events',
      tag: 'Control',
      summary: 'Server-sent events of the tenant: tasks, batches, callback attempts, requests',
      description:
        'A text/event-stream of what happens to the tenant from now on: task.created, task.completed, ' +
        'task.canceled, task.error, task.redone, batch.completed, callback.attempt and request (a journaled ' +
        'request, see GET /_mock/requests). Each message is `event: <type>`, `id: <n>` and `data: <JSON>` naming ' +
        `its object (task_id, batch, delivery_id, request_id). A \`: keep-alive\` comment comes every ` +
        `${KEEP_ALIVE_MS / 1000} s. At most ${bus.maxPerTenant} subscribers per tenant, and --max-held-requests ` +
        'streams and held requests app-wide (one more is a 503 with Retry-After); a ' +
        'subscriber that reads too slowly loses its oldest events and gets a `dropped` event saying how many. ' +
        'The stream ends when the client goes away or the server shuts down.',
      response: MockEventSchema,
      responseMediaType: 'text/event-stream',
      examples: () => ({
        response: {
          type: 'task.completed',
          time: '2026-01-01T00:00:00.000Z',
          task_id: '6798a2f3c1d4e5f6a7b8c9d0',
          task_type: 'imageannotation',
          status: 'completed',
        },
      }),
      errors: [],
      handler: ({ tenant, c }) => {
        // HEAD has no body to stream, so nothing would ever end a subscription made for it.
        if (c.req.method === 'HEAD') return c.body(null, 200, { 'Content-Type': 'text/event-stream' });
        const subscription = bus.subscribe(tenant.key);
        if (subscription === 'tenant_limit') throw subscriberLimit(bus.maxPerTenant);
        if (typeof subscription === 'string') throw heldRefused(subscription, bus.held.maxPerTenant, bus.held.max);
        return streamSSE(c, async (stream) => {
          stream.onAbort(() => subscription.close());
          // The connection, too: a client gone before the first write, or a pipelined request's, never aborts the
          // stream.
          const gone = clientGone(c);
          if (gone.aborted) subscription.close();
          else gone.addEventListener('abort', () => subscription.close(), { once: true });
          // At once: the client sees the headers, and knows it is subscribed.
          await stream.write(': subscribed\n\n');
          await pump(subscription, (text) => stream.write(text));
          subscription.close();
        });
      },
    }),
  ];
}

/** Writes the subscription's events until it is closed (client gone, or server shutdown). */
async function pump(subscription: Subscription, write: (text: string) => Promise<unknown>): Promise<void> {
  for (;;) {
    const next = await subscription.next(KEEP_ALIVE_MS);
    if (next === 'closed') return;
    if (next === 'idle') await write(': keep-alive\n\n');
    else {
      // A `dropped` notice has no number of its own.
      const id = next.id > 0 ? `id: ${next.id}\n` : '';
      await write(`event: ${next.event.type}\n${id}data: ${JSON.stringify(next.event)}\n\n`);
    }
  }
}
