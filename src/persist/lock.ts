import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** Another live process holds the folder. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(`labelmock: ${dir} is in use by another labelmock (pid ${pid}); stop it or pick another --data-dir`);
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

function holder(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes `dir/lock` for this process: two servers writing one journal would corrupt it. A lock whose
 * process is gone (killed, crashed) or that cannot be read is stale and taken over.
 */
export function acquireDirLock(dir: string): { release(): void } {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'lock');
  const content = JSON.stringify({ pid: process.pid, host: hostname(), started_at: new Date().toISOString() });
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(path, content, { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const pid = holder(path);
      if (pid !== undefined && pid !== process.pid && alive(pid)) throw new DataDirLockedError(dir, pid);
      rmSync(path, { force: true });
    }
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
