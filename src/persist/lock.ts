import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createExclusive, holder, liveHolder, lockContent, removeStale } from '../runtime/file-lock.js';
import { SECRET_FOLDER_MODE } from './modes.js';

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
      mkdirSync(folder, { mode: SECRET_FOLDER_MODE });
    } catch (err) {
      if (codeOf(err) === 'EEXIST' && statSync(folder).isDirectory()) continue;
      throw new Error(`cannot make ${folder}: ${CANNOT_MAKE[codeOf(err) ?? ''] ?? (err as Error).message}`);
    }
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
  for (let attempt = 0; !createExclusive(path, lockContent()); attempt += 1) {
    const pid = liveHolder(path);
    if (pid !== undefined) throw new DataDirLockedError(dir, pid);
    if (attempt >= 5) throw new Error(`labelmock: could not take the lock in ${dir}: it keeps changing`);
    const rival = removeStale(path);
    // A rival took the lock between the read and the rename: step aside.
    if (rival !== undefined) throw new DataDirLockedError(dir, rival);
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
