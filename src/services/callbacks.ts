import { type CallbackDelivery, isDelivered } from '../domain/callbacks/schemas.js';
import { isEmail } from '../domain/common/values.js';
import type { JobOf } from '../domain/jobs/schemas.js';
import { toIso } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import { taskJson } from '../store/task-collection.js';
import type { Tenant, TenantEvent } from '../store/tenant.js';
import { batchCounts } from './batch-status.js';
import type { CallbackJournalBudget } from './callback-budget.js';
import { journalDelivery } from './callback-journal.js';
import { type FetchLike, globalFetch, sendCallback } from './callback-send.js';
import type { DeliveryLimiter } from './delivery-limiter.js';
import type { Scheduler } from './scheduler.js';
import { viewTask } from './tasks.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * The task events that send a callback, and the journal's name for each. `task_redone` is the callbacks
 * page's "recalled" event (a completed task converted back to pending): its body carries status pending and
 * response null, as the task itself then does (scale.com/docs/api-reference/callbacks, "Events that trigger a
 * Callback").
 */
const TASK_EVENTS = {
  task_completed: 'completed',
  task_error: 'error',
  task_audited: 'audit',
  task_redone: 'recalled',
} as const;
const sendsCallback = (kind: string): kind is keyof typeof TASK_EVENTS => kind in TASK_EVENTS;

/**
 * Virtual-clock time of attempt `n` (1-based) after the first: exponential backoff whose retries
 * together span 24 hours times retry_scale, as the real service spreads its 20 attempts over a day.
 */
export function retryOffsetMs(n: number, maxAttempts: number, retryScale: number): number {
  if (n <= 1 || maxAttempts <= 1) return 0;
  const unit = (DAY_MS * retryScale) / (2 ** (maxAttempts - 1) - 1);
  return Math.round(unit * (2 ** (n - 1) - 1));
}

/** A delivery's fixed memory beyond its body: ids, headers, attempts, objects. */
const DELIVERY_OVERHEAD_BYTES = 1024;

export interface DispatcherOptions {
  /** Bounds the deliveries in flight app-wide; the rest wait their turn. */
  limiter: DeliveryLimiter;
  /** Entries each tenant's journal keeps (oldest finished ones leave first). */
  journalSize: number;
  /** What all tenants' journals hold together (--max-callback-journal-bytes). */
  budget: CallbackJournalBudget;
  /** Injectable so deliveries can be tested without sockets; the global fetch by default. */
  fetch?: FetchLike;
  /** Told after each attempt, once the delivery's state follows from it (the event stream). */
  onAttempt?: (tenant: Tenant, delivery: CallbackDelivery) => void;
}

/**
 * Sends callbacks: journals each one, tries it off the request path (a scheduled job, never awaited
 * by the API call that caused it), and retries failures on the tenant's virtual clock.
 *
 * Why a limiter of our own on top of the global fetch: undici (Node's fetch) pools keep-alive
 * connections per origin and reuses an idle one for the next delivery to the same receiver, but it
 * sets no limit on connections per origin or in total, so a thousand deliveries to receivers that
 * never answer would open a thousand sockets. The limiter keeps at most `maxInFlight` requests
 * open, hence at most that many busy sockets; idle pooled ones close after undici's keep-alive
 * timeout (4 s unless the receiver asks for another) and an aborted attempt closes its socket.
 */
export class CallbackDispatcher {
  private readonly fetch: FetchLike;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly ids: IdGenerator,
    private readonly options: DispatcherOptions,
  ) {
    this.fetch = options.fetch ?? globalFetch;
  }

  handle = (tenant: Tenant, event: TenantEvent): void => {
    if (event.kind === 'batch_completed') {
      const { batch } = event.record;
      if (!batch.callback) return;
      const body = { batch: structuredClone(batch), status: batch.status, counts: batchCounts(tenant, event.record) };
      this.enqueue(tenant, { batch: batch.name, event: 'batch_completed', target: batch.callback, body });
      return;
    }
    // Creation and cancel send no callback (they feed the event stream only).
    if (!sendsCallback(event.kind)) return;
    const record = event.record;
    const { task } = record;
    if (!task.callback_url) return;
    const body = {
      task_id: task.task_id,
      status: task.status,
      response: task.response ?? null,
      task: viewTask(record),
    };
    const what = { task_id: task.task_id, event: TASK_EVENTS[event.kind], target: task.callback_url, body };
    // The body holds the task revision it sent (its values shared with the task while that lasts, its own once the
    // task changes): counted as the revision's JSON, which the revision keeps already.
    this.enqueue(tenant, what, DELIVERY_OVERHEAD_BYTES + taskJson(record).byteLength);
  };

  /** `size`: about what the delivery holds in memory, for the journals' app-wide budget. */
  private enqueue(
    tenant: Tenant,
    what: Pick<CallbackDelivery, 'task_id' | 'batch' | 'event' | 'target' | 'body'>,
    size = DELIVERY_OVERHEAD_BYTES,
  ): void {
    const startMs = tenant.now();
    const delivery: CallbackDelivery = {
      id: this.ids.next(),
      ...what,
      state: 'pending',
      created_at: toIso(startMs),
      headers: { 'content-type': 'application/json', 'scale-callback-auth': tenant.settings.callback_auth_key },
      attempts: [],
    };
    tenant.happened(delivery);
    const { budget } = this.options;
    journalDelivery(tenant.callbacks, delivery, this.options.journalSize, (gone) => {
      budget.dropped(tenant, gone);
      tenant.changed({ kind: 'delivery_dropped', id: gone.id });
    });
    budget.journaled(tenant, delivery, size, (holder, gone) =>
      holder.changed({ kind: 'delivery_dropped', id: gone.id }),
    );
    if (isEmail(what.target)) {
      // E-mail targets are journaled, never sent; the flags stay false, as no 2xx came back.
      delivery.state = 'recorded';
      tenant.changed({ kind: 'delivery', delivery });
      return;
    }
    delivery.next_attempt_at = delivery.created_at;
    tenant.changed({ kind: 'delivery', delivery });
    const job = {
      kind: 'deliver_callback',
      delivery_id: delivery.id,
      attempt: 1,
      due_at: delivery.created_at,
    } as const;
    this.scheduler.schedule(tenant, job);
  }

  /** A deliver_callback job: one attempt, then the delivery's outcome or its next attempt scheduled. */
  async deliver(tenant: Tenant, job: JobOf<'deliver_callback'>): Promise<void> {
    // The journal keeps pending deliveries; one that is gone or finished (an import may carry such
    // a job) has nothing left to send.
    const delivery = tenant.callbacks.find((entry) => entry.id === job.delivery_id);
    if (delivery?.state !== 'pending' || tenant.retired) return;
    const n = job.attempt;
    // The timeout runs from the moment the attempt gets its slot, not while it waits for one.
    const { at, began, happening, outcome } = await this.options.limiter.run(tenant.key, async () => {
      const started = { at: toIso(tenant.now()), began: Date.now(), happening: tenant.nextHappening() };
      const { timeout_ms } = tenant.settings.callbacks;
      const sent = await sendCallback(
        this.fetch,
        delivery.target,
        delivery.headers,
        JSON.stringify(delivery.body),
        timeout_ms,
      );
      return { ...started, outcome: sent };
    });
    const attempt = { attempt: n, at, ...outcome, duration_ms: Date.now() - began };
    delivery.attempts.push(attempt);
    tenant.happened(attempt, happening);
    const { max_attempts, retry_scale } = tenant.settings.callbacks;
    const ok = isDelivered(outcome.status_code);
    if (ok || n >= max_attempts) {
      delivery.state = ok ? 'succeeded' : 'failed';
      delete delivery.next_attempt_at;
      if (delivery.event !== 'batch_completed') noteOutcome(tenant, delivery, ok);
      tenant.changed({ kind: 'delivery', delivery });
      this.options.onAttempt?.(tenant, delivery);
      return;
    }
    // Retries count from the first attempt, which was due when the delivery was journaled.
    const dueMs = Date.parse(delivery.created_at) + retryOffsetMs(n + 1, max_attempts, retry_scale);
    delivery.next_attempt_at = toIso(dueMs);
    tenant.changed({ kind: 'delivery', delivery });
    this.scheduler.schedule(tenant, { ...job, attempt: n + 1, due_at: delivery.next_attempt_at });
    this.options.onAttempt?.(tenant, delivery);
  }
}

/**
 * A task callback's outcome on its task. Not a task change a client made: updated_at stays as it
 * is. A task the tenant no longer holds (reset since) is left alone.
 */
function noteOutcome(tenant: Tenant, delivery: CallbackDelivery, ok: boolean): void {
  const record = delivery.task_id === undefined ? undefined : tenant.tasks.get(delivery.task_id);
  if (!record) return;
  tenant.tasks.update(record, (current) => {
    current.callback_succeeded = ok;
    current.callback_completed = ok;
  });
}
