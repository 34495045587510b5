import { z } from 'zod';
import { type MockEvent, MockEventSchema } from './schemas.js';

/** The event types GET /_mock/wait takes, as the stream names them (task.completed; task_completed also reads). */
export const WAITABLE_EVENTS = [
  'task.created',
  'task.completed',
  'task.canceled',
  'task.error',
  'task.redone',
  'batch.completed',
  'callback.attempt',
  'request',
] as const;
type WaitableEvent = (typeof WAITABLE_EVENTS)[number];

/** The event fields a wait may be narrowed by: each must equal the event's own field. */
export const WAIT_FILTERS = [
  'task_id',
  'task_type',
  'status',
  'batch',
  'delivery_id',
  'state',
  'method',
  'path',
] as const;

export const WaitAnswerSchema = z
  .object({
    id: z
      .number()
      .int()
      .nullable()
      .describe(
        "The event's number in the tenant's sequence (use it as the next wait's since); null when the task or " +
          'batch was already in the state the event leads to, so no event was waited for.',
      ),
    event: MockEventSchema,
  })
  .strict()
  .describe('The first matching event.');

/** What a wait looks for: the event type, and the fields the event must carry. */
export type WaitCriteria = { event: WaitableEvent } & Partial<Record<(typeof WAIT_FILTERS)[number], string>>;

/** Whether an event is of the type and carries every filter's value. */
export function eventMatches(query: WaitCriteria, event: MockEvent): boolean {
  if (event.type !== query.event) return false;
  const fields = event as Record<string, unknown>;
  return WAIT_FILTERS.every((name) => query[name] === undefined || String(fields[name]) === query[name]);
}
