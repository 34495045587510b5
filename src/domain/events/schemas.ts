import { z } from 'zod';

/** Subscribers one tenant may have at once; one more is refused (503) naming the limit. */
export const MAX_SUBSCRIBERS_PER_TENANT = 16;
/** Events waiting for a slow subscriber; past it the oldest are dropped (a `dropped` event tells how many). */
export const MAX_QUEUED_EVENTS = 1000;
/** Events kept per watched tenant, for GET /_mock/wait's `since`. */
export const RECENT_EVENTS = 100;
/** Tenants whose events are numbered and kept at once; past it the one watched longest ago is forgotten. */
export const MAX_WATCHED_TENANTS = 1000;
/** GET /_mock/wait's longest (and default) wait, in real milliseconds. */
export const MAX_WAIT_MS = 120_000;
export const DEFAULT_WAIT_MS = 30_000;
/** A comment line this often keeps proxies and clients from closing an idle stream. */
export const KEEP_ALIVE_MS = 15_000;

const time = z.string().describe("When it happened, on the tenant's virtual clock (ISO 8601).");

const TaskEventSchema = z
  .object({
    type: z.enum(['task.created', 'task.completed', 'task.canceled', 'task.error', 'task.redone']),
    time,
    task_id: z.string(),
    task_type: z.string(),
    status: z.string().describe("The task's status after the change."),
  })
  .strict();

const BatchEventSchema = z.object({ type: z.literal('batch.completed'), time, batch: z.string() }).strict();

const CallbackAttemptEventSchema = z
  .object({
    type: z.literal('callback.attempt'),
    time,
    delivery_id: z.string().describe('The delivery in GET /_mock/callbacks.'),
    task_id: z.string().optional(),
    batch: z.string().optional(),
    attempt: z.number().int().min(1),
    status_code: z.number().int().optional().describe("The receiver's answer; absent when none came."),
    error: z.string().optional(),
    state: z.enum(['pending', 'succeeded', 'failed']).describe('The delivery after this attempt.'),
  })
  .strict();

const RequestEventSchema = z
  .object({
    type: z.literal('request'),
    time,
    request_id: z.string().describe('The entry in GET /_mock/requests.'),
    method: z.string(),
    path: z.string(),
    status: z.number().int(),
  })
  .strict();

const DroppedEventSchema = z
  .object({
    type: z.literal('dropped'),
    time,
    count: z.number().int().min(1).describe('Events this subscriber missed because it read too slowly.'),
  })
  .strict();

export const MockEventSchema = z
  .union([TaskEventSchema, BatchEventSchema, CallbackAttemptEventSchema, RequestEventSchema, DroppedEventSchema])
  .describe(
    "A server-sent event stream (text/event-stream). Each message is `event: <type>`, `id: <n>` (the tenant's event " +
      'number, shared with GET /_mock/wait) and `data:` one of these objects as JSON; a `: keep-alive` ' +
      'comment comes every 15 s.',
  );
export type MockEvent = z.infer<typeof MockEventSchema>;
