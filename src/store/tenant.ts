import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { TenantSettings } from '../domain/settings.js';
import type { Clock } from '../runtime/clock.js';
import type { AccountState, BatchRecord } from './account.js';
import { FaultRuleSet } from './faults.js';
import { Feed } from './feed.js';
import { FileCollection, type FileRecord } from './file-collection.js';
import type { IdempotencyEntry } from './idempotency-store.js';
import type { Mode } from './mode.js';
import { QualityTaskLog } from './quality-tasks.js';
import type { RateWindow } from './rate-window.js';
import type { RequestJournal } from './request-journal.js';
import { StudioState } from './studio.js';
import type { TaskRecord } from './task-collection.js';
import { TaskCollection } from './task-collection.js';
import { type LifeEntry, type LifeKind, noteLife } from './task-life.js';
import { ownerRecord, Team } from './team.js';
import { TrainingAttemptLog } from './training-attempts.js';
import { V2Catalog, type V2CatalogState } from './v2-catalog.js';
import { TallyBudget, WarningTally } from './warning-tally.js';

export type { TenantSettings };

/**
 * Everything that changes in the store, as one typed feed: what the event stream, dependent tasks, callbacks
 * and the --data-dir journal hear. `event` is what happened to a task or batch (a completion, a cancel);
 * the rest say what was stored, for whoever keeps a copy (persistence).
 */
export type StoreChange =
  | { kind: 'event'; tenant: Tenant; event: TenantEvent }
  /** A new task, or a new revision of one, or a change to its internal facts. */
  | { kind: 'task_stored'; tenant: Tenant; record: TaskRecord }
  | { kind: 'file_stored'; tenant: Tenant; record: FileRecord }
  /** A job scheduled (`scheduled`), or taken to run. */
  | { kind: 'job'; tenant: Tenant; job: ScheduledJob; scheduled: boolean }
  /** A callback delivery journaled or moved on (an attempt, its outcome). */
  | { kind: 'delivery'; tenant: Tenant; delivery: CallbackDelivery }
  /** The bounded callback journal let a delivery go. */
  | { kind: 'delivery_dropped'; tenant: Tenant; id: string }
  /** The tenant was replaced by an empty one (a reset, an import). */
  | { kind: 'tenant_reset'; tenant: Tenant }
  /** Records added to the tenant's v2 catalog (deliveries, schemas, datasets: never changed once added). */
  | { kind: 'catalog_added'; tenant: Tenant; added: Partial<V2CatalogState> }
  | { kind: 'idempotency_stored'; key: string; entry: IdempotencyEntry };

export type ChangeListener = (change: StoreChange) => void;

/** A listener of task and batch events only (callbacks, dependents, the event stream). */
export const onEvent =
  (listener: (tenant: Tenant, event: TenantEvent) => void): ChangeListener =>
  (change) => {
    if (change.kind === 'event') listener(change.tenant, change.event);
  };

/** A change a tenant tells of itself: the feed's kinds for jobs and deliveries, without the tenant. */
type TenantChange =
  Extract<StoreChange, { kind: 'job' | 'delivery' | 'delivery_dropped' }> extends infer C
    ? C extends { tenant: Tenant }
      ? Omit<C, 'tenant'>
      : never
    : never;

/** What happened to a tenant's objects; the callback dispatcher and dependent tasks listen. */
export type TenantEvent =
  | {
      kind: 'task_created' | 'task_completed' | 'task_canceled' | 'task_error' | 'task_redone' | 'task_audited';
      record: TaskRecord;
    }
  | { kind: 'batch_completed'; record: BatchRecord };

/** The task events a task's life keeps (its creation is its created_at; its audits are its audits). */
const LIFE_KINDS: Partial<Record<TenantEvent['kind'], LifeKind>> = {
  task_completed: 'completed',
  task_redone: 'redone',
  task_error: 'error',
  task_canceled: 'canceled',
};

/**
 * One account in one mode: the unit of isolation. Its clock is the app clock plus its own offset,
 * so advancing one tenant's clock never moves another's.
 */
export class Tenant {
  readonly tasks = new TaskCollection();
  readonly files = new FileCollection();
  readonly studio = new StudioState();
  readonly training = new TrainingAttemptLog();
  readonly qualityTasks = new QualityTaskLog();
  /** Fault rules for the tenant's /v1 requests (POST /_mock/faults); a reset empties them with the rest. */
  readonly faults = new FaultRuleSet();
  private catalog = new V2Catalog();
  private teamState: Team | undefined;
  clockOffsetMs = 0;
  /** The rate limit's current window (services/rate-limit.ts); undefined until a limited request counts. */
  rateWindow: RateWindow | undefined = undefined;
  /** Scheduled work as records in due order (services/scheduler.ts runs them); never closures. */
  jobs: ScheduledJob[] = [];
  /** The callback journal, oldest first. */
  callbacks: CallbackDelivery[] = [];
  /** Parameters its requests sent that were ignored (lenient unknown_params; GET /_mock/warnings). */
  readonly warnings: WarningTally;
  /** The request journal, made by the first request journaled (GET /_mock/requests). */
  requestJournal: RequestJournal | undefined = undefined;
  /**
   * Where its clients reach this server (scheme, host and port of their last request): results files are
   * linked under it. Plumbing, not state: a dropped tenant's next request sets it again.
   */
  origin = 'http://127.0.0.1:3000';
  /** The shard this server is behind a router (--shard-id): keyless links carry it so the router sends them home. */
  shard: string | undefined = undefined;
  /** Replaced by a reset or an import: its scheduled jobs and waiting callbacks are never run. */
  retired = false;
  /** Requests being served for this tenant right now: the store never drops a tenant in use. */
  inUse = 0;
  /** Made once: idempotency records and the store's map all point at this one string. */
  readonly key: string;
  private lastStampMs = 0;
  /**
   * The order things of the timeline happened in (a creation, a change, a callback journaled or tried, a request
   * answered), which the clock's milliseconds cannot tell apart within one: in memory only.
   */
  private happenings = 0;
  private readonly happenedAt = new WeakMap<object, number>();

  constructor(
    readonly account: string,
    readonly mode: Mode,
    private readonly clock: Clock,
    public settings: TenantSettings,
    /** Projects and batches: shared by the account's test and live tenants. */
    readonly shared: AccountState,
    /** The store's change feed: this tenant's changes go there, its collections' included. */
    private readonly feed: Feed<StoreChange> = new Feed(),
    /** The store's count of ignored-parameter names all tenants keep. */
    tallyBudget: TallyBudget = new TallyBudget(),
  ) {
    this.key = tenantKey(account, mode);
    this.warnings = new WarningTally(tallyBudget);
    this.tasks.onChange = (record) => feed.publish({ kind: 'task_stored', tenant: this, record });
    this.files.onInsert = (record) => feed.publish({ kind: 'file_stored', tenant: this, record });
    this.v2 = this.catalog;
  }

  /** v2's deliveries, response schemas and datasets (made through the control plane). */
  get v2(): V2Catalog {
    return this.catalog;
  }

  /** A catalog put in place (an import): what is added to it from now on goes out on the feed. */
  set v2(catalog: V2Catalog) {
    catalog.onAdded = (added) => this.feed.publish({ kind: 'catalog_added', tenant: this, added });
    this.catalog = catalog;
  }

  /**
   * Test/live separation's one rule: a project or batch (kept per account, shared by both modes) belongs to the
   * mode of the key that made it. Every check of "is this record mine to use" asks this.
   */
  owns(record: { readonly mode: Mode }): boolean {
    return record.mode === this.mode;
  }

  /** The next place in the order things happen in this tenant (see `happened`). */
  nextHappening(): number {
    this.happenings += 1;
    return this.happenings;
  }

  /** Notes when `thing` (a record, a life entry, a delivery, an attempt, a journal entry) happened: now or then. */
  happened(thing: object, at = this.nextHappening()): void {
    this.happenedAt.set(thing, at);
  }

  /** Where `thing` stands in the order things happened; undefined for what came from a restore or an import. */
  happeningOf(thing: object): number | undefined {
    return this.happenedAt.get(thing);
  }

  /** What happened to a task or batch (services call this): the task's life notes it, the feed's listeners react. */
  emit(event: TenantEvent): void {
    const kind = LIFE_KINDS[event.kind];
    if (event.kind === 'task_created') this.happened(event.record);
    else if (event.kind === 'task_audited') this.happened(event.record.task.audits.at(-1) ?? event.record);
    else if (kind !== undefined && event.kind !== 'batch_completed') {
      const { task } = event.record;
      const ms = Date.parse(task.updated_at);
      // Two literal shapes, no spread: one small object per change.
      const entry: LifeEntry =
        kind === 'error' && task.error !== undefined ? { kind, ms, error: task.error } : { kind, ms };
      noteLife(event.record.internal, entry);
      this.happened(entry);
    }
    this.feed.publish({ kind: 'event', tenant: this, event });
  }

  /** A job scheduled or taken to run, a delivery journaled or dropped: told to the feed. */
  changed(change: TenantChange): void {
    this.feed.publish({ ...change, tenant: this });
  }

  /** Teammates, made on first use: the account owner is always on the team. */
  get team(): Team {
    this.teamState ??= new Team(ownerRecord(this.account));
    return this.teamState;
  }

  set team(team: Team) {
    this.teamState = team;
  }

  /** The team as it stands, without making one: undefined until someone used it. */
  get teamIfMade(): Team | undefined {
    return this.teamState;
  }

  now(): number {
    return this.clock.now() + this.clockOffsetMs;
  }

  /** A timestamp that never goes backwards, so creation order and created_at order agree. */
  stamp(): number {
    this.lastStampMs = Math.max(this.now(), this.lastStampMs);
    return this.lastStampMs;
  }

  /** Import keeps timestamps monotonic after the imported ones. */
  noteStamp(ms: number): void {
    this.lastStampMs = Math.max(this.lastStampMs, ms);
  }
}

export const tenantKey = (account: string, mode: Mode) => `${mode}:${account}`;
