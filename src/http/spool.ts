import { type FileHandle, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Parts up to this size stay in memory; bigger ones go to a temporary file until their size is known. */
const SPOOL_MEMORY_BYTES = 4 * 1024 * 1024;
/** Disk writes are batched (one writev each): a stream may arrive in tiny chunks. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Collects one multipart part's bytes. A part is only known to be within the limit once it ends,
 * so a large one is written to disk meanwhile: an oversize upload is refused without ever
 * sitting in memory, and an accepted one is read back in one piece.
 */
export class Spool {
  size = 0;
  /** In memory: every chunk so far; on disk: the chunks not yet written. */
  private chunks: Buffer[] = [];
  private pendingBytes = 0;
  private disk?: { dir: string; path: string; handle: FileHandle };

  constructor(private memoryBytes = SPOOL_MEMORY_BYTES) {}

  async write(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    this.chunks.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.disk) {
      if (this.pendingBytes >= WRITE_BATCH_BYTES) await this.flush();
    } else if (this.size > this.memoryBytes) await this.moveToDisk();
  }

  /** All bytes in one buffer; the temporary file, if any, is removed. */
  async bytes(): Promise<Buffer> {
    if (!this.disk) return Buffer.concat(this.chunks, this.size);
    await this.flush();
    await this.disk.handle.close();
    const data = await readFile(this.disk.path);
    await this.discard();
    return data;
  }

  async discard(): Promise<void> {
    this.chunks = [];
    const disk = this.disk;
    this.disk = undefined;
    if (!disk) return;
    await disk.handle.close().catch(() => {});
    await rm(disk.dir, { recursive: true, force: true });
  }

  private async flush(): Promise<void> {
    if (!this.disk || this.chunks.length === 0) return;
    const batch = this.chunks;
    this.chunks = [];
    this.pendingBytes = 0;
    // One writev of the chunks as they came, not a copy of them joined: an upload would otherwise
    // allocate its own size again in short-lived buffers, garbage that lifts the peak memory.
    // (libuv writes every buffer, past partial writes and the iovec limit.)
    await this.disk.handle.writev(batch);
  }

  private async moveToDisk(): Promise<void> {
    let dir: string;
    try {
      dir = await mkdtemp(join(tmpdir(), 'labelmock-upload-'));
    } catch {
      // No writable temporary directory: keep the part in memory rather than fail the upload.
      this.memoryBytes = Infinity;
      return;
    }
    const path = join(dir, 'part');
    this.disk = { dir, path, handle: await open(path, 'w') };
    await this.flush();
  }
}
