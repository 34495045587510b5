import { readFileSync } from 'node:fs';
import type { FileObject } from '../domain/files/schemas.js';
import { SeqIndex } from './seq-index.js';

export interface FileRecord {
  /** Creation order: lists walk it newest first. */
  seq: number;
  file: FileObject;
  /** The uploaded bytes in memory; null for a file imported by URL (never fetched) or kept on disk. */
  bytes: Buffer | null;
  /** With --data-dir: where the uploaded bytes live once durable (memory then lets them go). */
  blobPath?: string;
}

/** Files of one tenant, by id and reference_id, indexed by project name for the filtered listing. */
export class FileCollection {
  private readonly byId = new Map<string, FileRecord>();
  private readonly bySeq = new Map<number, FileRecord>();
  private readonly byReference = new Map<string, FileRecord>();
  readonly byProject = new SeqIndex();
  private nextSeq = 1;
  private bytesHeld = 0;
  private bytesInMemory = 0;
  /** Told of every new record (the --data-dir journal listens); unset when state lives in memory only. */
  onInsert: ((record: FileRecord) => void) | undefined = undefined;

  get size(): number {
    return this.byId.size;
  }

  /** Uploaded bytes held, counted against the tenant's --max-file-bytes-per-tenant. */
  get storedBytes(): number {
    return this.bytesHeld;
  }

  /** Uploaded bytes held in memory (with --data-dir, those not yet in blobs/): the app-wide budget counts them. */
  get memoryBytes(): number {
    return this.bytesInMemory;
  }

  /** With --data-dir: the record's bytes are durable in `blobPath`, so memory lets them go. */
  movedToDisk(record: FileRecord, blobPath: string): void {
    if (!record.bytes || record.blobPath !== undefined) return;
    this.bytesInMemory -= record.bytes.length;
    record.blobPath = blobPath;
    record.bytes = null;
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
  insert(file: FileObject, bytes: Buffer | null, blobPath?: string): FileRecord {
    const record: FileRecord = { seq: this.nextSeq++, file, bytes, ...(blobPath !== undefined && { blobPath }) };
    this.bytesHeld += bytes?.length ?? (blobPath === undefined ? 0 : (file.size ?? 0));
    this.bytesInMemory += bytes?.length ?? 0;
    this.byId.set(file.id, record);
    this.bySeq.set(record.seq, record);
    if (file.reference_id !== undefined) this.byReference.set(file.reference_id, record);
    for (const project of file.project_names) this.byProject.add(project, record.seq);
    this.onInsert?.(record);
    return record;
  }

  /** The uploaded bytes, from memory or from the data directory; null for a file imported by URL. */
  static bytesOf(record: FileRecord): Buffer | null {
    if (record.bytes) return record.bytes;
    return record.blobPath === undefined ? null : readFileSync(record.blobPath);
  }

  /** Oldest first. */
  all(): FileRecord[] {
    return [...this.bySeq.values()];
  }
}
