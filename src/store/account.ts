import type { Batch } from '../domain/batches/schemas.js';
import type { Project } from '../domain/projects/schemas.js';
import { objectIdOf } from '../runtime/object-id.js';
import type { Mode } from './mode.js';
import { SeqIndex } from './seq-index.js';

/**
 * A record's object as a read only view: a change goes through AccountState's changeProject/changeBatch, which
 * move the account's revision (--data-dir writes projects and batches again only when it moved).
 */
type Frozen<T> = T extends (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

export interface ProjectRecord {
  readonly project: Frozen<Project>;
  /** The mode of the key that created it: the other mode may see it but not use it. */
  mode: Mode;
  /** The v2 id (v1 shows names only). */
  id: string;
}

/** The v2 life cycle beyond v1's statuses: a paused or cancelled batch (v1 shows in_progress and completed). */
type BatchHold = 'paused' | 'cancelled';

export interface BatchRecord {
  seq: number;
  readonly batch: Frozen<Batch>;
  mode: Mode;
  createdMs: number;
  /** The v2 id (v1 shows names only). */
  id: string;
  readonly hold?: BatchHold;
  /** Tasks whose automatic completion came due while the batch was paused: completed on resume. */
  readonly deferred?: readonly string[];
}

/** What a batch carries beyond its v1 object, as state exports and the data directory keep it. */
export type BatchExtras = { hold?: BatchHold; deferred?: string[] };

/** A batch record as its change sees it (AccountState.changeBatch). */
type BatchChange = BatchExtras & { batch: Batch };

/**
 * The project or batch as an answer or an export shows it: serialized or cloned there, never changed (the record's
 * type says so; changeProject and changeBatch change it).
 */
export const projectOf = (record: ProjectRecord) => record.project as Project;
export const batchOf = (record: BatchRecord) => record.batch as Batch;

/** Batches of one account, by name, in creation order, indexed by project and status for lists. */
class BatchCollection {
  private readonly byName = new Map<string, BatchRecord>();
  private readonly bySeq = new Map<number, BatchRecord>();
  private readonly byId = new Map<string, BatchRecord>();
  readonly byProject = new SeqIndex();
  readonly byStatus = new SeqIndex();
  private nextSeq = 1;

  constructor(
    private readonly account: string,
    private readonly changed: () => void,
  ) {}

  get(name: string): BatchRecord | undefined {
    return this.byName.get(name);
  }

  withId(id: string): BatchRecord | undefined {
    return this.byId.get(id);
  }

  atSeq(seq: number): BatchRecord | undefined {
    return this.bySeq.get(seq);
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  insert(batch: Batch, mode: Mode, createdMs: number, extras: BatchExtras = {}): BatchRecord {
    const id = objectIdOf('batch', this.account, batch.name);
    const record: BatchRecord = { seq: this.nextSeq++, batch, mode, createdMs, id, ...extras };
    this.index(record);
    this.changed();
    return record;
  }

  private index(record: BatchRecord): void {
    this.byName.set(record.batch.name, record);
    this.bySeq.set(record.seq, record);
    this.byId.set(record.id, record);
    this.byProject.add(record.batch.project, record.seq);
    this.byStatus.add(record.batch.status, record.seq);
  }

  setStatus(record: BatchRecord, status: Batch['status']): void {
    this.byStatus.remove(record.batch.status, record.seq);
    batchOf(record).status = status;
    this.byStatus.add(status, record.seq);
    this.changed();
  }

  all(): BatchRecord[] {
    return [...this.bySeq.values()];
  }

  /**
   * Drops the batches of one mode (a tenant reset, an import), keeping the other mode's records as they are,
   * their seqs included: a live key's page token taken before a test reset still pages on without a skip or a
   * repeat (test must never disturb live).
   */
  without(mode: Mode): BatchCollection {
    const kept = new BatchCollection(this.account, this.changed);
    kept.nextSeq = this.nextSeq;
    for (const record of this.all()) if (record.mode !== mode) kept.index(record);
    return kept;
  }
}

export const extrasOf = ({ hold, deferred }: BatchRecord): BatchExtras => ({
  ...(hold !== undefined && { hold }),
  ...(deferred !== undefined && deferred.length > 0 && { deferred: [...deferred] }),
});

/** What an account owns across both modes: project and batch names are unique per account. */
export class AccountState {
  /** By name; add through `addProject`, which keeps the id index. */
  projects = new Map<string, ProjectRecord>();
  private projectIds = new Map<string, ProjectRecord>();
  batches: BatchCollection;
  /** Moves on every change to a project or a batch (one account's, both modes'). */
  revision = 0;

  constructor(readonly account: string) {
    this.batches = new BatchCollection(account, () => this.revision++);
  }

  addProject(project: Project, mode: Mode): ProjectRecord {
    const record = { project, mode, id: objectIdOf('project', this.account, project.name) };
    this.projects.set(project.name, record);
    this.projectIds.set(record.id, record);
    this.revision++;
    return record;
  }

  /** The one way to change a project in place. */
  changeProject<T>(record: ProjectRecord, change: (project: Project) => T): T {
    this.revision++;
    return change(projectOf(record));
  }

  /** The one way to change a batch in place (its status: batches.setStatus, which keeps the status index). */
  changeBatch<T>(record: BatchRecord, change: (record: BatchChange) => T): T {
    this.revision++;
    return change(record as BatchChange);
  }

  projectWithId(id: string): ProjectRecord | undefined {
    return this.projectIds.get(id);
  }

  /** Forgets what one mode created (reset of that mode's tenant). */
  dropMode(mode: Mode): void {
    this.projects = new Map([...this.projects].filter(([, record]) => record.mode !== mode));
    this.projectIds = new Map([...this.projects.values()].map((record) => [record.id, record]));
    this.batches = this.batches.without(mode);
    this.revision++;
  }
}
