import { Counter, collectDefaultMetrics, Gauge, type Metric, Registry } from 'prom-client';
import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { HeldRequests } from '../runtime/held-requests.js';
import type { JournalBudget } from '../store/request-journal.js';
import type { Store } from '../store/store.js';
import type { CallbackJournalBudget } from './callback-budget.js';
import type { DeliveryLimiter } from './delivery-limiter.js';
import type { EventBus } from './events.js';
import type { UploadMemory } from './upload-memory.js';

/** What the gauges read when Prometheus scrapes: the app's own budgets and collections, never a tenant's name. */
export interface MetricSources {
  store: Store;
  held: HeldRequests;
  events: EventBus;
  deliveries: DeliveryLimiter;
  uploads: UploadMemory;
  callbackJournals: CallbackJournalBudget;
  /** The request journals' budget; undefined with --journal-size 0. */
  requestJournals: JournalBudget | undefined;
}

/**
 * Seconds: a request here takes well under a millisecond, a held one (a wait, a hang fault, an event stream) up to
 * minutes; the buckets cover both ends.
 */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The map `parent` keeps under `key`, made empty the first time. */
function childOf<K, V>(parent: Map<string, Map<K, V>>, key: string): Map<K, V> {
  let child = parent.get(key);
  if (!child) {
    child = new Map();
    parent.set(key, child);
  }
  return child;
}

/** One method, route and status's requests: their count, the sum of their seconds, and how many fell in each bucket. */
interface RequestTally {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Per bucket of DURATION_BUCKETS (not cumulative), and one more for the slower ones (+Inf). */
  buckets: number[];
}

/**
 * The requests' counter and histogram, counted here and formatted by prom-client at the scrape: a collector in
 * the shape prom-client's registry reads (`get()`). prom-client's own Counter and Histogram hash and validate
 * their labels on every call; on the bin's fastest route (GET a task, 21,000 req/s on 2 cores) that cost 18% of
 * its rate, where these counts cost none that autocannon can tell from noise.
 */
class RequestTallies {
  /** By route, method and status: a request finds its tally without building a key. */
  private readonly byRoute = new Map<string, Map<string, Map<number, RequestTally>>>();
  private readonly all: RequestTally[] = [];

  observe(method: string, route: string, status: number, seconds: number): void {
    const byStatus = childOf(childOf(this.byRoute, route), method);
    let tally = byStatus.get(status);
    if (!tally) {
      tally = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: BUCKETS_ZERO.slice() };
      byStatus.set(status, tally);
      this.all.push(tally);
    }
    tally.count++;
    tally.sum += seconds;
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
    tally.buckets[bucket] = (tally.buckets[bucket] as number) + 1;
  }

  /** The counter as prom-client's registry reads a metric. */
  counter(name: string, help: string) {
    return collector(name, help, 'counter', () => this.all.map((t) => ({ labels: t.labels, value: t.count })));
  }

  /** The histogram as prom-client's registry reads a metric: cumulative buckets, then the sum and the count. */
  histogram(name: string, help: string) {
    return collector(name, help, 'histogram', () =>
      this.all.flatMap((t) => {
        let cumulative = 0;
        const buckets = t.buckets.map((count, i) => {
          cumulative += count;
          const le = i < DURATION_BUCKETS.length ? String(DURATION_BUCKETS[i]) : '+Inf';
          return { labels: { ...t.labels, le }, value: cumulative, metricName: `${name}_bucket` };
        });
        return [
          ...buckets,
          { labels: t.labels, value: t.sum, metricName: `${name}_sum` },
          { labels: t.labels, value: t.count, metricName: `${name}_count` },
        ];
      }),
    );
  }
}

const BUCKETS_ZERO: readonly number[] = [...DURATION_BUCKETS, Number.POSITIVE_INFINITY].map(() => 0);

/** A metric in the shape prom-client's registry formats (`name`, `help`, `type`, `get()`). */
function collector(name: string, help: string, type: 'counter' | 'histogram', values: () => unknown[]) {
  const read = () => ({ name, help, type, aggregator: 'sum' as const, values: values() });
  // Registered beside prom-client's own metrics, which the registry's types list by class.
  return { name, help, type, aggregator: 'sum', get: async () => read() } as unknown as Metric;
}

/**
 * One app's Prometheus metrics (GET /metrics), in a registry of its own: two apps in one process never share a
 * series. Requests are labelled by method, the route's path template (a bounded set: `unmatched` for a request no
 * route took, `other` for documents and pages) and status; everything else is a gauge read at the scrape. No label
 * names an account or a key: the shard (--shard-id) is the only label beside the request's.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new RequestTallies();
  private readonly callbackAttempts: Counter<'outcome'>;
  private processMetrics = false;

  constructor(sources: MetricSources, shardId: string | undefined) {
    if (shardId !== undefined) this.registry.setDefaultLabels({ shard: shardId });
    const registers = [this.registry];
    this.registry.registerMetric(
      this.requests.counter(
        'labelmock_http_requests_total',
        'Requests answered, by method, route (its path template) and status.',
      ),
    );
    this.registry.registerMetric(
      this.requests.histogram(
        'labelmock_http_request_duration_seconds',
        'Time from a request reaching the app to its answer (a streamed body may go on after), in seconds.',
      ),
    );
    this.callbackAttempts = new Counter({
      name: 'labelmock_callback_attempts_total',
      help: 'Callback delivery attempts, by the delivery state after each: succeeded, pending (retried) or failed.',
      labelNames: ['outcome'],
      registers,
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    gauge('labelmock_tenants', 'Tenants (an account in one mode) held now.', () => sources.store.tenantCount);
    gauge('labelmock_accounts', 'Accounts held now.', () => sources.store.accountCount);
    gauge(
      'labelmock_held_requests',
      'Requests held open now: event streams, waits, delayed and hanging requests.',
      () => sources.held.count,
    );
    gauge('labelmock_held_requests_max', 'Requests that may be held at once (--max-held-requests).', () => {
      return sources.held.max;
    });
    gauge(
      'labelmock_request_journal_bytes',
      'Bytes all request journals hold together.',
      () => sources.requestJournals?.bytes ?? 0,
    );
    gauge(
      'labelmock_callback_journal_bytes',
      'Bytes all callback journals hold together.',
      () => sources.callbackJournals.bytes,
    );
    gauge(
      'labelmock_upload_bytes',
      'Uploaded file bytes held in memory, stored and being read.',
      () => sources.uploads.storedBytes + sources.uploads.readingBytes,
    );
    gauge(
      'labelmock_callback_deliveries_in_flight',
      'Callback deliveries being sent now.',
      () => sources.deliveries.busy,
    );
    gauge(
      'labelmock_callback_deliveries_queued',
      'Callback deliveries waiting for a sending slot (--max-callbacks-in-flight).',
      () => sources.deliveries.queued,
    );
    gauge('labelmock_event_subscribers', 'Event streams open now.', () => sources.events.totalSubscribers);
  }

  /** Counts and times one answered request, which took `seconds`. */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe(method, route, status, seconds);
  }

  /** The callback dispatcher's hook: counts each attempt by the state it left its delivery in. */
  readonly onCallbackAttempt = (delivery: CallbackDelivery): void => {
    if (delivery.state !== 'recorded') this.callbackAttempts.labels(delivery.state).inc();
  };

  /**
   * The exposition text. The process's own metrics (memory, CPU, event loop) join at the first scrape: they start
   * a monitor of the event loop, which an app that is never scraped (one per test) should not run.
   */
  async text(): Promise<string> {
    if (!this.processMetrics) {
      this.processMetrics = true;
      collectDefaultMetrics({ register: this.registry, prefix: 'labelmock_' });
    }
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
