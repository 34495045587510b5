import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import type { ScheduledJob } from '../domain/jobs/schemas.js';
import type { TenantSettings } from '../domain/settings.js';
import type { Clock } from '../runtime/clock.js';
import type { AccountState, BatchRecord } from './account.js';
import { FaultRuleSet } from './faults.js';
import { FileCollection } from './file-collection.js';
import type { Mode } from './mode.js';
import { QualityTaskLog } from './quality-tasks.js';
import type { RequestJournal } from './request-journal.js';
import { StudioState } from './studio.js';
import type { TaskRecord } from './task-collection.js';
import { TaskCollection } from './task-collection.js';
import { ownerRecord, Team } from './team.js';
import { TrainingAttemptLog } from './training-attempts.js';

export type { TenantSettings };

/** What happened to a tenant's objects; the callback dispatcher and dependent tasks listen. */
export type TenantEvent =
  | {
      kind: 'task_created' | 'task_completed' | 'task_canceled' | 'task_error' | 'task_redone' | 'task_audited';
      record: TaskRecord;
    }
  | { kind: 'batch_completed'; record: BatchRecord };

/**
 * Hears the changes to a tenant's scheduled jobs and callback journal (its task and file collections
 * tell of theirs themselves): the --data-dir journal listens; state kept in memory only has none.
 */
export interface ChangeListener {
  job(job: ScheduledJob, scheduled: boolean): void;
  delivery(delivery: CallbackDelivery): void;
  deliveryDropped(id: string): void;
}

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
  private teamState: Team | undefined;
  clockOffsetMs = 0;
  /** Scheduled work as records in due order (services/scheduler.ts runs them); never closures. */
  jobs: ScheduledJob[] = [];
  /** The callback journal, oldest first. */
  callbacks: CallbackDelivery[] = [];
  /** The request journal, made by the first request journaled (GET /_mock/requests). */
  requestJournal: RequestJournal | undefined = undefined;
  /** Set with --data-dir: hears job and callback journal changes. */
  changes: ChangeListener | undefined = undefined;
  /** Set by the store: hands events to the app's listeners. */
  emit: (event: TenantEvent) => void = () => {};
  /** Requests being served for this tenant right now: the store never drops a tenant in use. */
  inUse = 0;
  /** Made once: idempotency records and the store's map all point at this one string. */
  readonly key: string;
  private lastStampMs = 0;

  constructor(
    readonly account: string,
    readonly mode: Mode,
    private readonly clock: Clock,
    public settings: TenantSettings,
    /** Projects and batches: shared by the account's test and live tenants. */
    readonly shared: AccountState,
  ) {
    this.key = tenantKey(account, mode);
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
