import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Another live process holds the folder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`labelmock: ${dir} is in use by another labelmock (pid ${pid}); stop it or pick another --data-dir`);
    this.name = 'DataDirLockedError';
  }
}

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
function holder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Creates `path` holding `content` only if it does not exist. Written aside and hard-linked into place,
 * so a rival never sees the lock empty (and takes that for stale); a filesystem without hard links
 * falls back to an exclusive create.
 */
function createExclusive(path: string, content: string): boolean {
  const aside = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(aside, content);
    linkSync(aside, path);
    return true;
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return false;
    try {
      writeFileSync(path, content, { flag: 'wx' });
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
 * Takes `dir/lock` for this process: two servers writing one journal would corrupt it. A lock whose
 * process is gone (killed, crashed), is this process (a container restarted with the same pid), or
 * that cannot be read is stale and taken over. The stale file is renamed aside before it is removed,
 * so of two processes taking it over at once only one removes it, never the lock the other just made.
 */
export function acquireDirLock(dir: string): { release(): void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'lock');
  const content = JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() });
  const liveHolder = (file: string) => {
    const pid = holder(file);
    return pid !== undefined && pid !== process.pid && alive(pid) ? pid : undefined;
  };
  for (let attempt = 0; !createExclusive(path, content); attempt += 1) {
    const pid = liveHolder(path);
    if (pid !== undefined) throw new DataDirLockedError(dir, pid);
    if (attempt >= 5) throw new Error(`labelmock: could not take the lock in ${dir}: it keeps changing`);
    const stale = `${path}.stale-${process.pid}`;
    try {
      renameSync(path, stale);
    } catch (err) {
      if (codeOf(err) === 'ENOENT') continue; // another process moved it first: try again
      throw err;
    }
    const moved = liveHolder(stale);
    if (moved !== undefined) {
      // A rival took the lock between the read and the rename: give it back and step aside.
      try {
        linkSync(stale, path);
      } catch {}
      rmSync(stale, { force: true });
      throw new DataDirLockedError(dir, moved);
    }
    rmSync(stale, { force: true });
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      if (holder(path) === process.pid) rmSync(path, { force: true });
    },
  };
}
