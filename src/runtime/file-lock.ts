import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Lock files: a file created only if it does not exist, naming the process that holds it. `--data-dir` takes
 * one for the server's life (persist/lock.ts); `--tls-dir` one for the moment it makes or reads its CA, so servers
 * started together on an empty folder share one CA (runtime/tls.ts).
 */

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Whether a process with this pid runs (EPERM: it does, under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid a lock file names, or undefined when it is gone or unreadable. */
export function holder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The live process other than this one that holds the lock file, if any. */
export function liveHolder(path: string): number | undefined {
  const pid = holder(path);
  return pid !== undefined && pid !== process.pid && alive(pid) ? pid : undefined;
}

/** What a lock file holds: this process, where and since when. */
export const lockContent = () =>
  JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() });

/**
 * Creates `path` holding `content` only if it does not exist. Written aside and hard-linked into place,
 * so a rival never sees the lock empty (and takes that for stale); a filesystem without hard links
 * falls back to an exclusive create.
 */
export function createExclusive(path: string, content: string): boolean {
  const aside = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, content, { mode: 0o600 });
    linkSync(aside, path);
    return true;
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    try {
      writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
      return true;
    } catch (wxErr) {
      if (codeOf(wxErr) === 'EEXIST') return false;
      throw wxErr;
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/**
 * Removes a lock whose holder is gone. Renamed aside first, so of two processes taking a stale lock over at
 * once only one removes it; answers the live process that holds it after all (then nothing is removed).
 */
export function removeStale(path: string): number | undefined {
  const stale = `${path}.stale-${process.pid}`;
  try {
    renameSync(path, stale);
  } catch (err) {
    if (codeOf(err) === 'ENOENT') return undefined; // another process moved it first
    throw err;
  }
  const moved = liveHolder(stale);
  if (moved !== undefined) {
    // A rival took the lock between the read and the rename: give it back.
    try {
      linkSync(stale, path);
    } catch {}
  }
  rmSync(stale, { force: true });
  return moved;
}

/** Sleeps the thread (a start-up step waiting for a rival process; nothing else runs yet). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Runs `work` holding the lock file `path`, waiting while a live process holds it (at most `timeoutMs`), taking
 * over a stale one; the lock is removed after.
 */
export function withFileLock<T>(path: string, work: () => T, timeoutMs = 60_000): T {
  const content = lockContent();
  const until = Date.now() + timeoutMs;
  while (!createExclusive(path, content)) {
    if (liveHolder(path) === undefined) removeStale(path);
    else if (Date.now() > until) throw new Error(`${path} is held by process ${holder(path)}: gave up waiting`);
    else pause(25);
  }
  try {
    return work();
  } finally {
    if (holder(path) === process.pid) rmSync(path, { force: true });
  }
}
