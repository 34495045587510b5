import type { Config } from '../config/index.js';
import type { BytePool } from '../runtime/byte-pool.js';
import type { Clock } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { Store } from '../store/store.js';
import type { CallbackJournalBudget } from './callback-budget.js';
import type { DeliveryLimiter } from './delivery-limiter.js';
import type { EventBus } from './events.js';
import type { Metrics } from './metrics.js';
import type { Scheduler } from './scheduler.js';
import type { UploadMemory } from './upload-memory.js';

/** What routes hand to services: built once per app by createApp. */
export interface Services {
  config: Config;
  clock: Clock;
  ids: IdGenerator;
  store: Store;
  scheduler: Scheduler;
  /** The event stream's subscribers (GET /_mock/events). */
  events: EventBus;
  /** When createApp built the app, on its clock (the health route's uptime). */
  startedAt: number;
  /** Callback deliveries in flight and waiting, app-wide (--max-callbacks-in-flight). */
  deliveries: DeliveryLimiter;
  /** What all tenants' callback journals hold, app-wide (--max-callback-journal-bytes). */
  callbackJournals: CallbackJournalBudget;
  /** Upload bytes being read and stored in memory, app-wide (--max-upload-memory-bytes). */
  uploads: UploadMemory;
  /** The app's Prometheus registry and request counters (GET /metrics). */
  metrics: Metrics;
  /** Buffers for large answers (list pages), lent per request and given back once sent. */
  pages: BytePool;
  /** The served /v1 and /v2 operations (method, path template): what a fault rule must match to fire. */
  interfaceRoutes: readonly { method: string; path: string }[];
  /** With --tls: the CA certificate (PEM) the server's certificate is signed by; null for the user's own. */
  tlsCaPem?: string | null;
}
