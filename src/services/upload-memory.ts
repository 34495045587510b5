import { appBudgetSpent } from '../errors/index.js';
import type { Store } from '../store/store.js';

/** Uploaded bytes all tenants hold in memory now (with --data-dir, only those not yet written to blobs/). */
function uploadBytesInMemory(store: Store): number {
  let bytes = 0;
  for (const tenant of store.allTenants()) bytes += tenant.files.memoryBytes;
  return bytes;
}

/** The 503: what is stored, what other uploads being read hold, and what this one would add. */
const spent = (stored: number, reading: number, adding: number, maxBytes: number) =>
  appBudgetSpent(
    `uploaded files held in memory by all tenants come to ${stored} bytes` +
      (reading > 0 ? `, uploads being read to ${reading} more` : '') +
      (adding > 0 ? ` (+${adding} for this one)` : ''),
    `${maxBytes} bytes at most`,
    '--max-upload-memory-bytes',
  );

/** One upload being read: its bytes count against the budget as they arrive. */
export interface UploadReading {
  /** Counts `bytes` more of this upload, or throws the 503 (before they are kept) when the budget is spent. */
  grow(bytes: number): void;
  /** The upload was read and stored, or refused: its arriving bytes no longer count. */
  release(): void;
}

/**
 * --max-upload-memory-bytes: per-tenant quotas multiply by the number of keys, so the bytes every tenant holds
 * in memory have one app-wide ceiling too, and so do the bytes of uploads still being read: each chunk counts
 * before it is kept, so eight concurrent 40 MB uploads against a 16 MB budget are refused as they cross it, not
 * once each has been read whole.
 */
export class UploadMemory {
  /** Bytes of uploads being read now, all tenants. */
  private reading = 0;

  constructor(
    private readonly store: Store,
    readonly maxBytes: number,
  ) {}

  get readingBytes(): number {
    return this.reading;
  }

  /** Uploaded bytes stored in memory now, all tenants (one pass over the tenants: for a scrape, not a request). */
  get storedBytes(): number {
    return uploadBytesInMemory(this.store);
  }

  /** Starts reading an upload: refused at once (503) when the stored and arriving bytes fill the budget. */
  begin(): UploadReading {
    // The stored bytes change only when an upload completes or a tenant resets: read once per upload, not per chunk.
    const stored = uploadBytesInMemory(this.store);
    if (stored + this.reading >= this.maxBytes) throw spent(stored, this.reading, 0, this.maxBytes);
    let mine = 0;
    let released = false;
    return {
      grow: (bytes) => {
        if (released) return;
        if (stored + this.reading + bytes > this.maxBytes) {
          throw spent(stored, this.reading - mine, mine + bytes, this.maxBytes);
        }
        mine += bytes;
        this.reading += bytes;
      },
      release: () => {
        if (released) return;
        released = true;
        this.reading -= mine;
      },
    };
  }

  /** Once read: the upload's `size` fits beside what all tenants store (the budget's check after the read). */
  checkStored(size: number): void {
    const held = uploadBytesInMemory(this.store);
    if (held + size > this.maxBytes) throw spent(held, this.reading, size, this.maxBytes);
  }
}
