import { closeSync, constants, fchmodSync, fdatasync, fstatSync, ftruncate, openSync, write } from 'node:fs';
import { SECRET_FILE_MODE } from './modes.js';

/** The disk calls a journal makes: tests inject failing ones (a full disk) to see what an answer does. */
export interface JournalIo {
  write(fd: number, data: Buffer, position: number): Promise<number>;
  datasync(fd: number): Promise<void>;
  truncate(fd: number, length: number): Promise<void>;
}

/** The real disk. One `write` call may write less than asked (a short write): `JournalFile` loops. */
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

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * An append-only file whose appends resolve once durable. Group commit: appends made while a write
 * and its fdatasync are under way go out together in the next one, so a burst of requests costs one
 * disk round trip, not one each. A failed group is rejected whole and cut off the file again, so no
 * torn bytes sit between good records; if even that fails, the journal refuses every later append
 * (a record written after unknown bytes could not be told apart from them on reading).
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
    size: number,
  ) {
    this.durableSize = size;
  }

  /**
   * Opens (creating if missing) for writing at explicit positions: with `O_APPEND` a write after a
   * failed one could not be placed at the durable size, which is what keeps torn bytes out.
   */
  static open(path: string, io: JournalIo = nodeJournalIo): JournalFile {
    // Owner only: the journal holds callback_auth_key and results tokens. A file an older build made 0644 is
    // narrowed too.
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, SECRET_FILE_MODE);
    try {
      fchmodSync(fd, SECRET_FILE_MODE);
      return new JournalFile(fd, io, fstatSync(fd).size);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
  }

  /** Bytes on disk and durable. */
  get size(): number {
    return this.durableSize;
  }

  /** Why the journal refuses appends, once a failed write could not be cut off again. */
  get broken(): string | undefined {
    return this.brokenReason;
  }

  /** Appends `text` (one or more framed lines); resolves once they are durable. */
  append(text: string): Promise<void> {
    if (this.closed) return Promise.reject(new Error('journal is closed'));
    if (this.brokenReason) return Promise.reject(new Error(`journal is unusable since ${this.brokenReason}`));
    return new Promise((resolve, reject) => {
      this.queued.push(text);
      this.waiters.push({ resolve, reject });
      // drain() always awaits before it ends, so `writing` is set before it can be cleared.
      this.writing ??= this.drain();
    });
  }

  /** Resolves once everything appended so far is durable or failed. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Refuses new appends at once, writes what was appended before, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return this.flush();
    this.closed = true;
    await this.flush();
    closeSync(this.fd);
  }

  /** Writes group after group until nothing is queued; the only writer, so one write is in flight at most. */
  private async drain(): Promise<void> {
    while (this.queued.length > 0) {
      const data = Buffer.from(this.queued.join(''), 'utf8');
      const waiters = this.waiters;
      this.queued = [];
      this.waiters = [];
      let step = 'write';
      try {
        await this.writeAll(data);
        step = 'datasync';
        await this.io.datasync(this.fd);
        this.durableSize += data.length;
        for (const waiter of waiters) waiter.resolve();
      } catch (err) {
        const error = await this.fail(step, err);
        // The groups queued meanwhile are refused with it: their changes may build on the failed ones
        // (a task's update after its creation), and a line of them kept alone would bring half back.
        for (const waiter of [...waiters, ...this.waiters]) waiter.reject(error);
        this.queued = [];
        this.waiters = [];
      }
    }
    this.writing = undefined;
  }

  private async writeAll(data: Buffer): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const n = await this.io.write(this.fd, data.subarray(done), this.durableSize + done);
      // A write that makes no progress would otherwise loop forever.
      if (!(n > 0)) throw new Error(`wrote ${n} of ${data.length - done} bytes`);
      done += n;
    }
  }

  /**
   * Cuts what the failed group may have left and answers the group's error. After a failed datasync the
   * bytes may or may not be on disk; cutting them makes the file match what the appends were told.
   */
  private async fail(step: string, err: unknown): Promise<Error> {
    const failed = `journal ${step} failed: ${messageOf(err)}`;
    try {
      await this.io.truncate(this.fd, this.durableSize);
      return new Error(failed, { cause: err });
    } catch (truncateErr) {
      this.brokenReason = `a failed ${step} could not be cut off (${messageOf(truncateErr)})`;
      const unusable = new Error(`journal is unusable since ${this.brokenReason}`, { cause: truncateErr });
      // Appends queued while the cut was tried would land after the unknown bytes: refuse them too.
      for (const waiter of this.waiters) waiter.reject(unusable);
      this.queued = [];
      this.waiters = [];
      return new Error(`${failed}; journal is unusable since ${this.brokenReason}`, { cause: err });
    }
  }
}
