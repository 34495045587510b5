import type { FileObject } from '../domain/files/schemas.js';
import { SeqIndex } from './seq-index.js';

export interface FileRecord {
  /** Creation order: lists walk it newest first. */
  seq: number;
  file: FileObject;
  /** The uploaded bytes; null for a file imported by URL (never fetched). */
  bytes: Buffer | null;
}

/** Files of one tenant, by id and reference_id, indexed by project name for the filtered listing. */
export class FileCollection {
  private readonly byId = new Map<string, FileRecord>();
  private readonly bySeq = new Map<number, FileRecord>();
  private readonly byReference = new Map<string, FileRecord>();
  readonly byProject = new SeqIndex();
  private nextSeq = 1;
  private bytesHeld = 0;

  get size(): number {
    return this.byId.size;
  }

  /** Uploaded bytes held, counted against the tenant's --max-file-bytes-per-tenant. */
  get storedBytes(): number {
    return this.bytesHeld;
  }

  get(id: string): FileRecord | undefined {
    return this.byId.get(id);
  }

  withReference(referenceId: string): FileRecord | undefined {
    return this.byReference.get(referenceId);
  }

  atSeq(seq: number): FileRecord | undefined {
    return this.bySeq.get(seq);
  }

  /** Callers insert in creation order (imports sort by created_at first). */
  insert(file: FileObject, bytes: Buffer | null): FileRecord {
    const record = { seq: this.nextSeq++, file, bytes };
    this.bytesHeld += bytes?.length ?? 0;
    this.byId.set(file.id, record);
    this.bySeq.set(record.seq, record);
    if (file.reference_id !== undefined) this.byReference.set(file.reference_id, record);
    for (const project of file.project_names) this.byProject.add(project, record.seq);
    return record;
  }

  /** Oldest first. */
  all(): FileRecord[] {
    return [...this.bySeq.values()];
  }
}
