import type { Batch } from '../domain/batches/schemas.js';
import type { Project } from '../domain/projects/schemas.js';
import type { Mode } from './mode.js';
import { SeqIndex } from './seq-index.js';

export interface ProjectRecord {
  project: Project;
  /** The mode of the key that created it: the other mode may see it but not use it. */
  mode: Mode;
}

export interface BatchRecord {
  seq: number;
  batch: Batch;
  mode: Mode;
  createdMs: number;
}

/** Batches of one account, by name, in creation order, indexed by project and status for lists. */
class BatchCollection {
  private readonly byName = new Map<string, BatchRecord>();
  private readonly bySeq = new Map<number, BatchRecord>();
  readonly byProject = new SeqIndex();
  readonly byStatus = new SeqIndex();
  private nextSeq = 1;

  get(name: string): BatchRecord | undefined {
    return this.byName.get(name);
  }

  atSeq(seq: number): BatchRecord | undefined {
    return this.bySeq.get(seq);
  }

  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  insert(batch: Batch, mode: Mode, createdMs: number): BatchRecord {
    const record = { seq: this.nextSeq++, batch, mode, createdMs };
    this.byName.set(batch.name, record);
    this.bySeq.set(record.seq, record);
    this.byProject.add(batch.project, record.seq);
    this.byStatus.add(batch.status, record.seq);
    return record;
  }

  setStatus(record: BatchRecord, status: Batch['status']): void {
    this.byStatus.remove(record.batch.status, record.seq);
    record.batch.status = status;
    this.byStatus.add(status, record.seq);
  }

  all(): BatchRecord[] {
    return [...this.bySeq.values()];
  }

  /** Drops the batches of one mode (a tenant reset), keeping the others' order. */
  without(mode: Mode): BatchCollection {
    const kept = new BatchCollection();
    for (const record of this.all()) if (record.mode !== mode) kept.insert(record.batch, record.mode, record.createdMs);
    return kept;
  }
}

/** What an account owns across both modes: project and batch names are unique per account. */
export class AccountState {
  projects = new Map<string, ProjectRecord>();
  batches = new BatchCollection();

  /** Forgets what one mode created (reset of that mode's tenant). */
  dropMode(mode: Mode): void {
    this.projects = new Map([...this.projects].filter(([, record]) => record.mode !== mode));
    this.batches = this.batches.without(mode);
  }
}
