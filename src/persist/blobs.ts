import { randomBytes } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-file.js';

/**
 * Uploaded file bytes in the data directory's blobs/ folder, one file each. A name is drawn per
 * write (never derived from the file id alone: an import may bring back an id with other bytes),
 * and a blob is durable (written, fsynced, renamed into place) before a journal line names it.
 */
export class BlobFolder {
  /** Blobs written whose journal line is not durable yet: a compaction must not take them for garbage. */
  readonly unsettled = new Set<string>();

  constructor(readonly dir: string) {}

  path(name: string): string {
    return join(this.dir, name);
  }

  /**
   * The path of a blob a journal line names, or undefined when the name is not one `name` makes: a data folder
   * may be shared or seeded by others, and `../../etc/passwd` must never be served as a file's bytes.
   */
  pathOf(name: string): string | undefined {
    return /^[A-Za-z0-9_-]{1,64}-[0-9a-f]{12}$/.test(name) ? this.path(name) : undefined;
  }

  /** A fresh name for the bytes of `fileId`. */
  name(fileId: string): string {
    return `${fileId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}-${randomBytes(6).toString('hex')}`;
  }

  /** Writes the bytes durably; the name stays unsettled until `settled` (its journal line is written or failed). */
  async write(name: string, bytes: Buffer): Promise<void> {
    this.unsettled.add(name);
    await writeFileAtomic(this.path(name), [bytes]);
  }

  settled(name: string): void {
    this.unsettled.delete(name);
  }

  /**
   * Removes the blobs nothing names (a reset or import dropped their files); answers how many went.
   * `named` is asked after the folder is read, in the same turn as the decision: a blob that became
   * named meanwhile is kept (fresh blobs get fresh names, so none becomes named after the decision).
   */
  async sweep(named: () => Set<string>): Promise<number> {
    const names = await readdir(this.dir);
    const keep = named();
    // A `<name>.tmp` is a write under way (or one a crash cut short, which a start removes).
    const garbage = names.filter((name) => !keep.has(name) && !this.unsettled.has(name.replace(/\.tmp$/, '')));
    for (const name of garbage) await unlink(this.path(name)).catch(() => {});
    return garbage.length;
  }
}
