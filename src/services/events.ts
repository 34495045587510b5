import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import { MAX_QUEUED_EVENTS, MAX_WATCHED_TENANTS, type MockEvent, RECENT_EVENTS } from '../domain/events/schemas.js';
import { toIso } from '../runtime/clock.js';
import { type HeldRefusal, HeldRequests } from '../runtime/held-requests.js';
import type { Tenant, TenantEvent } from '../store/tenant.js';

/** An event with its number in the tenant's sequence: the stream's `id:` and the `since` of GET /_mock/wait. */
export interface SequencedEvent {
  id: number;
  event: MockEvent;
}

/** What a subscriber's `next` answers: an event, `idle` when none came in time, `closed` once it ended. */
export type NextEvent = SequencedEvent | 'idle' | 'closed';

/**
 * One subscriber's queue. Publishing only appends (never waits for the subscriber), so a slow
 * reader slows neither the request path nor the other subscribers; past `maxQueued` its oldest
 * events go and the count comes to it as one `dropped` event (id 0: it has no place in the sequence).
 */
export class Subscription {
  private readonly queue: SequencedEvent[] = [];
  private dropped = 0;
  private wake: (() => void) | undefined;
  closed = false;

  constructor(
    private readonly maxQueued: number,
    private readonly onClose: (subscription: Subscription) => void,
  ) {}

  push(item: SequencedEvent): void {
    if (this.closed) return;
    if (this.queue.length >= this.maxQueued) {
      this.queue.shift();
      this.dropped += 1;
    }
    this.queue.push(item);
    this.wake?.();
  }

  /** The next event, waiting at most `idleMs` for one. */
  async next(idleMs: number): Promise<NextEvent> {
    if (this.closed) return 'closed';
    if (this.queue.length === 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, idleMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    if (this.closed) return 'closed';
    if (this.dropped > 0) {
      const count = this.dropped;
      this.dropped = 0;
      return { id: 0, event: { type: 'dropped', time: this.queue[0]?.event.time ?? new Date().toISOString(), count } };
    }
    return this.queue.shift() ?? 'idle';
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.length = 0;
    this.onClose(this);
    this.wake?.();
  }
}

/** A watched tenant's event numbering and its last events (GET /_mock/wait's `since`). */
interface EventLog {
  seq: number;
  recent: SequencedEvent[];
}

/**
 * The event stream's fan-out: subscribers per tenant key, so a tenant dropped and made again keeps them. A
 * tenant is watched from its first subscription or wait on: from then on its events are numbered and its last
 * RECENT_EVENTS kept, for at most MAX_WATCHED_TENANTS tenants (the longest unwatched goes first).
 */
export class EventBus {
  private readonly topics = new Map<string, Set<Subscription>>();
  private readonly logs = new Map<string, EventLog>();

  constructor(
    readonly maxPerTenant: number,
    /** App-wide: a stream holds its connection open for as long as the client reads. */
    readonly held: HeldRequests = new HeldRequests(Number.POSITIVE_INFINITY),
    private readonly maxQueued = MAX_QUEUED_EVENTS,
  ) {}

  /** One Map lookup or two: publishers check it before they build an event. */
  has(tenantKey: string): boolean {
    return this.logs.has(tenantKey) || this.topics.has(tenantKey);
  }

  /** Starts (or refreshes) numbering and keeping the tenant's events. */
  watch(tenantKey: string): EventLog {
    const log = this.logs.get(tenantKey) ?? { seq: 0, recent: [] };
    // Re-inserted: the map's order is the order tenants were last watched in.
    this.logs.delete(tenantKey);
    this.logs.set(tenantKey, log);
    if (this.logs.size > MAX_WATCHED_TENANTS) {
      const oldest = this.logs.keys().next().value;
      if (oldest !== undefined) this.logs.delete(oldest);
    }
    return log;
  }

  publish(tenantKey: string, event: MockEvent): void {
    const subscribers = this.topics.get(tenantKey);
    const log = this.logs.get(tenantKey) ?? (subscribers ? this.watch(tenantKey) : undefined);
    if (!log) return;
    log.seq += 1;
    const item = { id: log.seq, event };
    log.recent.push(item);
    if (log.recent.length > RECENT_EVENTS) log.recent.shift();
    if (subscribers) for (const subscriber of subscribers) subscriber.push(item);
  }

  /** The kept events numbered after `since`, oldest first. */
  recentSince(tenantKey: string, since: number): SequencedEvent[] {
    return (this.logs.get(tenantKey)?.recent ?? []).filter((item) => item.id > since);
  }

  /** A new subscription, or why there is none: the tenant has `maxPerTenant` already, or the app its budget. */
  subscribe(tenantKey: string): Subscription | 'tenant_limit' | HeldRefusal {
    const subscribers = this.topics.get(tenantKey) ?? new Set<Subscription>();
    if (subscribers.size >= this.maxPerTenant) return 'tenant_limit';
    const release = this.held.take(tenantKey);
    if (typeof release === 'string') return release;
    const subscription = new Subscription(this.maxQueued, (gone) => {
      release();
      subscribers.delete(gone);
      if (subscribers.size === 0 && this.topics.get(tenantKey) === subscribers) this.topics.delete(tenantKey);
    });
    subscribers.add(subscription);
    this.topics.set(tenantKey, subscribers);
    this.watch(tenantKey);
    return subscription;
  }

  subscriberCount(tenantKey: string): number {
    return this.topics.get(tenantKey)?.size ?? 0;
  }

  /** Subscribers of every tenant together (a pass over the topics: for a scrape, not a request). */
  get totalSubscribers(): number {
    let total = 0;
    for (const subscribers of this.topics.values()) total += subscribers.size;
    return total;
  }

  /** Ends every subscription (server shutdown): their streams close, so none holds the shutdown up. */
  closeAll(): void {
    for (const subscribers of [...this.topics.values()]) for (const subscriber of [...subscribers]) subscriber.close();
  }
}

const TASK_EVENT_TYPES = {
  task_created: 'task.created',
  task_completed: 'task.completed',
  task_canceled: 'task.canceled',
  task_error: 'task.error',
  task_redone: 'task.redone',
} as const;
const isStreamed = (kind: string): kind is keyof typeof TASK_EVENT_TYPES => kind in TASK_EVENT_TYPES;

/** The store's listener that turns task and batch changes into events, built only for a tenant with subscribers. */
export function tenantEventSource(bus: EventBus): (tenant: Tenant, event: TenantEvent) => void {
  return (tenant, event) => {
    if (!bus.has(tenant.key)) return;
    const time = toIso(tenant.now());
    if (event.kind === 'batch_completed') {
      bus.publish(tenant.key, { type: 'batch.completed', time, batch: event.record.batch.name });
      return;
    }
    if (!isStreamed(event.kind)) return;
    const { task } = event.record;
    const type = TASK_EVENT_TYPES[event.kind];
    bus.publish(tenant.key, { type, time, task_id: task.task_id, task_type: task.type, status: task.status });
  };
}

/** The callback dispatcher's hook: one event per attempt, with the delivery's state after it. */
export function callbackAttemptSource(bus: EventBus): (tenant: Tenant, delivery: CallbackDelivery) => void {
  return (tenant, delivery) => {
    const attempt = delivery.attempts.at(-1);
    if (!attempt || !bus.has(tenant.key) || delivery.state === 'recorded') return;
    bus.publish(tenant.key, {
      type: 'callback.attempt',
      time: attempt.at,
      delivery_id: delivery.id,
      ...(delivery.task_id !== undefined && { task_id: delivery.task_id }),
      ...(delivery.batch !== undefined && { batch: delivery.batch }),
      attempt: attempt.attempt,
      ...(attempt.status_code !== undefined && { status_code: attempt.status_code }),
      ...(attempt.error !== undefined && { error: attempt.error }),
      state: delivery.state,
    });
  };
}
