import { resolve } from 'node:path';
import { Hono } from 'hono';
import { type Config, defaultConfig, selfCheckFromEnvironment } from './config/index.js';
import { controlRoutes } from './control/routes.js';
import type { CallbackDelivery } from './domain/callbacks/schemas.js';
import { MAX_SUBSCRIBERS_PER_TENANT } from './domain/events/schemas.js';
import { noRoute, methodNotAllowed as notAllowed } from './errors/index.js';
import { allowedMethods } from './http/allowed-methods.js';
import { authMiddleware, createKeyResolver } from './http/auth.js';
import { bodyLimits } from './http/body-limits.js';
import { CachedRouter } from './http/cached-router.js';
import { corsMiddleware } from './http/cors.js';
import { durability } from './http/durability.js';
import type { AppEnv } from './http/env.js';
import { toErrorResponse } from './http/error-answer.js';
import { faultMiddleware } from './http/faults.js';
import { hostCheck } from './http/host-check.js';
import { IdempotencyGuard } from './http/idempotency.js';
import { observeRequests } from './http/metrics.js';
import { mountRoutes } from './http/mount-routes.js';
import { normalizedPath } from './http/path.js';
import { rateLimit } from './http/rate-limit.js';
import { requestJournal } from './http/request-journal.js';
import { type LogSink, type RequestLogger, requestLogger } from './http/request-log.js';
import { selfCheck } from './http/self-check/middleware.js';
import { tenancy } from './http/tenancy.js';
import { apiDocument, controlDocument, v2Document } from './openapi/documents.js';
import { type DurableOptions, DurableState } from './persist/durable-state.js';
import { docsRoutes } from './routes/docs.js';
import { apiRoutes } from './routes/index.js';
import { inspectorRoutes } from './routes/inspector.js';
import { metaRoutes } from './routes/meta.js';
import { v2Routes } from './routes/v2/index.js';
import { BytePool } from './runtime/byte-pool.js';
import { type Clock, systemClock } from './runtime/clock.js';
import { HeldRequests } from './runtime/held-requests.js';
import { type IdGenerator, randomIds } from './runtime/ids.js';
import { CallbackJournalBudget } from './services/callback-budget.js';
import type { FetchLike } from './services/callback-send.js';
import { CallbackDispatcher } from './services/callbacks.js';
import type { Services } from './services/context.js';
import { DeliveryLimiter } from './services/delivery-limiter.js';
import { dependentsListener } from './services/dependents.js';
import { callbackAttemptSource, EventBus, tenantEventSource } from './services/events.js';
import { jobRunner } from './services/jobs.js';
import { Metrics } from './services/metrics.js';
import { Scheduler } from './services/scheduler.js';
import { startSweeper } from './services/sweeper.js';
import { UploadMemory } from './services/upload-memory.js';
import { JournalBudget } from './store/request-journal.js';
import { Store } from './store/store.js';
import { onEvent, type Tenant } from './store/tenant.js';

export interface CreateAppOptions {
  clock?: Clock;
  ids?: IdGenerator;
  config?: Partial<Config>;
  store?: Store;
  /** Sends callbacks; the global fetch by default (inject one to test deliveries without sockets). */
  fetch?: FetchLike;
  /** Receives the request log's lines when `config.log` is not `off`; stdout by default. */
  logSink?: LogSink;
  /** Served over HTTPS (the CLI's --tls): the CA certificate GET /_mock/tls/ca.pem answers (null: none of ours). */
  tlsCaPem?: string | null;
  /** With `config.dataDir`: compaction threshold, warnings, disk calls (tests inject failing ones). */
  persistence?: DurableOptions;
}

export type MockApp = Hono<AppEnv> & {
  services: Services;
  /** Stops timers (delayed completions, retries). */
  dispose(): void;
  /** Disposes, then writes what is pending to --data-dir and unlocks it (SIGTERM); without one, dispose alone. */
  close(): Promise<void>;
  /** The --data-dir state (what its start recovered); undefined when state lives in memory only. */
  durable: DurableState | undefined;
};

/**
 * Builds a complete, independent mock. No module-level state: every call is a fresh service,
 * which is what lets each test build its own app in milliseconds.
 */
export function createApp(options: CreateAppOptions = {}): MockApp {
  const config: Config = { ...defaultConfig, selfCheck: selfCheckFromEnvironment(), ...options.config };
  const clock = options.clock ?? systemClock;
  const limits = { maxTenants: config.maxTenants, maxFileBytesPerTenant: config.maxFileBytesPerTenant };
  const store = options.store ?? new Store(clock, config.completion, limits, config.rateLimit, config.unknownParams);
  const ids = options.ids ?? randomIds;
  const held = new HeldRequests(config.maxHeldRequests);
  const events = new EventBus(MAX_SUBSCRIBERS_PER_TENANT, held);
  const deliveries = new DeliveryLimiter(config.maxCallbacksInFlight);
  const uploads = new UploadMemory(store, config.maxUploadMemoryBytes);
  const callbackJournals = new CallbackJournalBudget(config.maxCallbackJournalBytes);
  const requestJournals = config.journalSize > 0 ? new JournalBudget(config.maxJournalBytes) : undefined;
  const metricSources = { store, held, events, deliveries, uploads, callbackJournals, requestJournals };
  const metrics = new Metrics(metricSources, config.shardId);
  const services: Services = {
    config,
    clock,
    ids,
    store,
    scheduler: new Scheduler(),
    events,
    startedAt: clock.now(),
    pages: new BytePool(),
    uploads,
    callbackJournals,
    deliveries,
    metrics,
    interfaceRoutes: [],
    tlsCaPem: options.tlsCaPem,
  };
  // Events first: a completion is announced before what follows from it (dependents, callbacks).
  store.changes.subscribe(onEvent(tenantEventSource(events)));
  // Dependents first: a root's callback then already lists its dependents' ids.
  store.changes.subscribe(onEvent(dependentsListener(services)));
  const callbackBudget = callbackJournals;
  // A reset or an import replaces the tenant and its journal: what the old one held is no longer counted.
  store.changes.subscribe((change) => {
    if (change.kind !== 'tenant_reset') return;
    callbackBudget.forget(change.tenant.key);
    deliveries.forget(change.tenant.key);
  });
  const dispatcherOptions = {
    limiter: deliveries,
    journalSize: config.callbackJournalSize,
    budget: callbackBudget,
    fetch: options.fetch,
    onAttempt: announceAndCount(callbackAttemptSource(events), metrics),
  };
  const dispatcher = new CallbackDispatcher(services.scheduler, services.ids, dispatcherOptions);
  store.changes.subscribe(onEvent(dispatcher.handle));
  services.scheduler.runWith(jobRunner(dispatcher));
  // After the wiring above: recovered jobs may run at once, and their runner must be there.
  const durable = config.dataDir
    ? DurableState.open(resolve(config.dataDir), store, services.scheduler, options.persistence)
    : undefined;

  const app = new Hono<AppEnv>({ getPath: normalizedPath, router: new CachedRouter() });
  app.onError(toErrorResponse);
  const api = apiRoutes(services);
  const v2 = v2Routes(services);
  services.interfaceRoutes = [...api, ...v2].filter((route) => !route.hidden);
  const control = controlRoutes(services);
  // Outermost: it sees every answer, those of the middleware below and of the error handler included.
  if (config.selfCheck !== 'off') {
    const documented = [...api, ...v2, ...control].filter((route) => !route.hidden);
    const key = documented.map((route) => `${route.method} ${route.path}`).join('\n');
    const streamed = new Set(documented.filter((r) => r.streamed).map((r) => `${r.method} ${r.path}`));
    const documents = () => [apiDocument(api), v2Document(v2), controlDocument(control)];
    app.use(selfCheck(config.selfCheck, key, documents, streamed));
  }
  // First, so every request is counted, timed and logged, those the middleware below refuse included.
  const log: RequestLogger | undefined = config.log === 'off' ? undefined : requestLogger(config.log, options.logSink);
  app.use(observeRequests(metrics, log, clock));
  // Before anything reads a key: a page that rebound its name to this machine gets nothing.
  const hosts = hostCheck(config.host, config.allowedHosts);
  if (hosts) app.use(hosts);
  // Right after the log: it journals what the middleware below refuse too (401s excepted: no tenant).
  if (requestJournals) {
    app.use(
      requestJournal({
        store,
        events,
        capacity: config.journalSize,
        budget: requestJournals,
        resolveKey: createKeyResolver(config.keys),
      }),
    );
  }
  // Before auth and the 405 check: a browser's preflight carries no key and uses OPTIONS.
  if (config.cors.length > 0) app.use(corsMiddleware(config.cors));
  // A request no route took: a 405 naming the allowed methods when its path has routes, else a 404.
  // Returned, not thrown: the handler runs outside the middleware's error handling.
  const allowedOn = allowedMethods(app);
  app.notFound((c) => {
    const { method, path } = c.req;
    const allowed = allowedOn(path);
    const refused = allowed.length > 0 && !allowed.includes(method);
    // `GET /tasks` for `GET /v1/tasks`: a base URL without its /v1 is the commonest slip.
    const prefixed = ['/v1/', '/v2/', '/_mock/'].some((prefix) => path.startsWith(prefix));
    const withPrefix = prefixed ? undefined : `/v1${path}`;
    const suggestion = withPrefix && allowedOn(withPrefix).includes(method) ? withPrefix : undefined;
    return toErrorResponse(refused ? notAllowed(method, path, allowed) : noRoute(method, path, suggestion), c);
  });
  app.use(bodyLimits(config.maxBodyBytes));

  // Documents first: they are public, so they sit before the auth middleware.
  metaRoutes(app, { api, v2, control });
  docsRoutes(app);
  inspectorRoutes(app);
  const idempotency = new IdempotencyGuard(store.idempotency, (key) => store.findTenant(key));
  // Keyless control routes (health) too: they answer before the auth middleware ever runs.
  mountRoutes(
    app,
    control.filter((route) => route.public),
    idempotency,
  );

  // One for both prefixes: it keeps each key's principal, and a key calls both.
  const auth = authMiddleware(createKeyResolver(config.keys), config.keys !== undefined);
  for (const prefix of ['/v1/*', '/v2/*', '/_mock/*']) {
    app.use(prefix, auth);
    app.use(prefix, tenancy(store, config.shardId));
    if (durable) app.use(prefix, durability(durable));
  }
  // After tenancy (rules are per tenant), before the routes (a faulted request changes nothing); /v1 and /v2.
  const faults = faultMiddleware(config.latency?.maxMs ? config.latency : undefined, held);
  for (const prefix of ['/v1/*', '/v2/*']) {
    // Before faults: a request refused for its rate is refused before anything else happens to it.
    app.use(prefix, rateLimit);
    app.use(prefix, faults.middleware);
  }

  mountRoutes(app, [...api, ...v2, ...control.filter((route) => !route.public)], idempotency);

  const sweeper = startSweeper(store);
  const dispose = () => {
    services.scheduler.dispose();
    sweeper.stop();
    deliveries.dispose();
    faults.dispose();
    // Ends the event streams, so none holds a graceful shutdown up.
    events.closeAll();
    log?.flush();
  };
  const close = async () => {
    dispose();
    await durable?.close();
  };
  return Object.assign(app, { services, dispose, close, durable });
}

/** The dispatcher's one attempt hook: the event stream hears of the attempt, and /metrics counts it. */
function announceAndCount(
  announce: (tenant: Tenant, delivery: CallbackDelivery) => void,
  metrics: Metrics,
): (tenant: Tenant, delivery: CallbackDelivery) => void {
  return (tenant, delivery) => {
    announce(tenant, delivery);
    metrics.onCallbackAttempt(delivery);
  };
}
