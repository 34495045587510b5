import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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

/** Why a folder cannot be made, said as what to do about it. */
const CANNOT_MAKE: Record<string, string> = {
  EACCES: 'permission denied: pick a folder this user can write',
  EPERM: 'permission denied: pick a folder this user can write',
  EROFS: 'the filesystem is read-only',
  ENOENT: 'no folder can be made there (a virtual filesystem such as /proc?)',
  ENOTDIR: 'a part of the path is a file, not a folder',
};

/**
 * Makes `dir` and the folders above it that are missing, one at a time. Not `mkdirSync(dir, {recursive})`:
 * on a filesystem that refuses every new entry (/proc) Node 20's recursive mkdir retries forever.
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  let at = resolve(dir);
  while (!existsSync(at) && dirname(at) !== at) {
    missing.unshift(at);
    at = dirname(at);
  }
  if (!statSync(at).isDirectory()) throw new Error(`${at} is a file, not a folder`);
  for (const folder of missing) {
    try {
      mkdirSync(folder);
    } catch (err) {
      if (codeOf(err) === 'EEXIST' && statSync(folder).isDirectory()) continue;
      throw new Error(`cannot make ${folder}: ${CANNOT_MAKE[codeOf(err) ?? ''] ?? (err as Error).message}`);
    }
  }
}

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
  makeFolder(dir);
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
