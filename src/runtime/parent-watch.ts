import { readFileSync } from 'node:fs';

/**
 * Calls `onGone` once the process that started this one has exited. `npx labelmock &` then `kill $!` ends npx
 * and its shell, but not the server under them: its parent just changes (to init, or a subreaper), and
 * nothing would ever stop it. A SIGKILLed npx (what Python's `Popen.kill()` sends) leaves the shell npm started
 * in place, still this process's parent: so on Linux the npm process itself is found among the ancestors and
 * watched too. Checked twice a second, on a timer that never holds the process open.
 */
export function watchParent(onGone: () => void, intervalMs = 500): void {
  const parent = process.ppid;
  const npm = npmAncestor(parent);
  const timer = setInterval(() => {
    if (process.ppid === parent && (npm === undefined || isRunning(npm))) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
}

/** A process as /proc shows it: its id and when it started (a pid reused by another process starts later). */
interface ProcessMark {
  pid: number;
  startTicks: string;
}

/**
 * `/proc/<pid>/stat`'s parent id and start time; undefined without /proc (macOS, Windows), once it is gone, or
 * while it is a zombie (dead, its exit not yet collected by its parent: a killed `Popen` nobody waited for).
 */
function statOf(pid: number): { ppid: number; startTicks: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses, which may hold spaces): state, ppid, ... starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return undefined;
    return { ppid: Number(fields[1]), startTicks: fields[19] ?? '' };
  } catch {
    return undefined;
  }
}

/** npm's process as /proc shows it: its title (`npm exec ...`, `npm start`) or its script (`.../npx-cli.js`). */
const NPM_COMMAND = /(?:^|[/\0])(?:npm|npx)(?:-cli\.js)?(?=[\s\0]|$)/;

/** The nearest ancestor (at most five up) whose command line is npm's or npx's, marked to be watched. */
function npmAncestor(parent: number): ProcessMark | undefined {
  let pid = parent;
  for (let depth = 0; depth < 5 && pid > 1; depth += 1) {
    const stat = statOf(pid);
    if (!stat) return undefined;
    let command = '';
    try {
      command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return undefined;
    }
    if (NPM_COMMAND.test(command)) return { pid, startTicks: stat.startTicks };
    pid = stat.ppid;
  }
  return undefined;
}

function isRunning(mark: ProcessMark): boolean {
  return statOf(mark.pid)?.startTicks === mark.startTicks;
}
