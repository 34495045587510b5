import { closeSync, fdatasync, fstatSync, ftruncate, openSync, write } from 'node:fs';

/** The disk calls a journal makes: tests inject failing ones (a full disk) to see what an answer does. */
export interface JournalIo {
  write(fd: number, data: Buffer, position: number): Promise<number>;
  datasync(fd: number): Promise<void>;
  truncate(fd: number, length: number): Promise<void>;
}

export const nodeJournalIo: JournalIo = {
  write: (fd, data, position) =>
    new Promise((resolve, reject) =>
      write(fd, data, 0, data.length, position, (err, n) => (err ? reject(err) : resolve(n))),
    ),
  datasync: (fd) => new Promise((resolve, reject) => fdatasync(fd, (err) => (err ? reject(err) : resolve()))),
  truncate: (fd, length) =>
    new Promise((resolve, reject) => ftruncate(fd, length, (err) => (err ? reject(err) : resolve()))),
};

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * An append-only file whose appends resolve once durable. Group commit: appends made while a write
 * and its fdatasync are under way go out together in the next one, so a burst of requests costs one
 * disk round trip, not one each. A failed group is rejected whole and cut off the file again, so no
 * torn bytes sit between good records; if even that fails, the journal refuses every later append.
 */
export class JournalFile {
  private durableSize: number;
  private queued: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  private brokenReason: string | undefined;
  private closed = false;

  private constructor(
    private readonly fd: number,
    private readonly io: JournalIo,
  ) {
    this.durableSize = fstatSync(fd).size;
  }

  static open(path: string, io: JournalIo = nodeJournalIo): JournalFile {
    closeSync(openSync(path, 'a'));
    return new JournalFile(openSync(path, 'r+'), io);
  }

  /** Bytes on disk and durable. */
  get size(): number {
    return this.durableSize;
  }

  /** Why the journal refuses appends, once a failed write could not be cut off again. */
  get broken(): string | undefined {
    return this.brokenReason;
  }

  /** Appends framed lines; resolves once they are durable. */
  append(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal is closed'));
    if (this.brokenReason) return Promise.reject(new Error(`journal is unusable since ${this.brokenReason}`));
    return new Promise((resolve, reject) => {
      this.queued.push(text);
      this.waiters.push({ resolve, reject });
      this.writing ??= this.drain();
    });
  }

  /** Resolves once everything appended so far is durable or failed. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  async close(): Promise<void> {
    await this.flush();
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** Writes group after group until nothing is queued. */
  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const data = Buffer.from(this.queued.join(''), 'utf8');
      const waiters = this.waiters;
      this.queued = [];
      this.waiters = [];
      try {
        await this.writeAll(data);
        await this.io.datasync(this.fd);
        this.durableSize += data.length;
        for (const waiter of waiters) waiter.resolve();
      } catch (err) {
        const error = await this.fail(err);
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.writing = undefined;
  }

  private async writeAll(data: Buffer): Promise<void> {
    let done = 0;
    while (done < data.length) {
      done += await this.io.write(this.fd, data.subarray(done), this.durableSize + done);
    }
  }

  /** Cuts what the failed group may have left, and says what failed. */
  private async fail(err: unknown): Promise<Error> {
    const reason = err instanceof Error ? err.message : String(err);
    try {
      await this.io.truncate(this.fd, this.durableSize);
    } catch (truncateErr) {
      const why = truncateErr instanceof Error ? truncateErr.message : String(truncateErr);
      this.brokenReason = `a failed write could not be cut off (${why})`;
      for (const waiter of this.waiters) waiter.reject(new Error(`journal is unusable since ${this.brokenReason}`));
      this.queued = [];
      this.waiters = [];
    }
    return new Error(`journal write failed: ${reason}`);
  }
}
