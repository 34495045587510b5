import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { binOf } from '../bin-of.js';

const PROBE = fileURLToPath(new URL('./probe.mjs', import.meta.url));

/** What the preloaded probe prints on stderr: one JSON object per line. */
const PROBE_LINE = /@@probe (\{[^\n]*\})\n/;

/** Where memory is, by the probe (scripts/stress/probe.mjs): what RSS is made of. */
export interface MemoryParts {
  heap: number;
  external: number;
  arrayBuffers: number;
  rss: number;
  /** RSS of anonymous pages (heaps, malloc, stacks) and of files (node's own code). */
  rssAnon: number;
  rssFile: number;
  threads: number;
  /** What V8's heap holds committed, and of it what is resident. */
  heapCommitted: number;
  heapPhysical: number;
  /** What V8 holds through malloc outside its heap, now and at its peak. */
  v8Malloced: number;
  v8MallocedPeak: number;
  spaces: Record<string, { committed: number; physical: number }>;
}

interface Probe extends MemoryParts {
  loopMaxMs: number;
  /** Of the longest stall, the main thread's own CPU time (the rest it waited for a core: a loaded machine). */
  loopMaxRanMs: number;
  /** Requests the server began during the longest stall. */
  loopMaxRequests: number;
  /** The longest garbage collection pause since the last probe. */
  gcMaxMs: number;
  /** How long the probe's own full collections took (not counted in the figures above). */
  forcedMs: number;
}

const UNKNOWN_MEMORY: MemoryParts = {
  heap: NaN,
  external: NaN,
  arrayBuffers: NaN,
  rss: NaN,
  rssAnon: NaN,
  rssFile: NaN,
  threads: NaN,
  heapCommitted: NaN,
  heapPhysical: NaN,
  v8Malloced: NaN,
  v8MallocedPeak: NaN,
  spaces: {},
};

export interface StartedServer {
  base: string;
  pid: number;
  child: ChildProcess;
  /** Heap after a full GC, RSS, and the longest event-loop stall since the last probe (NaN: no answer). */
  probe(): Promise<Probe>;
  /** Open file descriptors of the server process. */
  fds(): number;
  exited: Promise<number | null>;
  /** The last of what the server wrote to stderr (probe lines left out). */
  stderrTail(): string;
}

/**
 * Starts the bin of `root` (what its package.json names, built: the single-file bundle users run) on a free
 * port, under `ulimit -n` (as in the issue), with the probe preloaded and the garbage collector exposed.
 * Resolves once the banner is out.
 */
export function startServer(root: string, fdLimit: number, args: string[] = []): Promise<StartedServer> {
  const node = [
    process.execPath,
    '--expose-gc',
    // e.g. STRESS_NODE_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to find what a stall was (written at exit).
    ...(process.env.STRESS_NODE_FLAGS?.split(' ').filter(Boolean) ?? []),
    '--import',
    PROBE,
    binOf(root),
    '--port',
    '0',
    ...args,
  ];
  const child = spawn('bash', ['-c', `ulimit -n ${fdLimit} && exec "$0" "$@"`, ...node], {
    cwd: root,
    env: { ...process.env, PORT: '' },
  });
  let stderr = '';
  const waiting: ((probe: Probe) => void)[] = [];
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
    for (let match = PROBE_LINE.exec(stderr); match; match = PROBE_LINE.exec(stderr)) {
      stderr = stderr.slice(match.index + match[0].length);
      const [, json = ''] = match; // the pattern's one group is required
      waiting.shift()?.(JSON.parse(json) as Probe);
    }
    if (stderr.length > 100_000) stderr = stderr.slice(-10_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let banner = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${banner}${stderr}`)), 30_000);
    child.stdout?.on('data', (chunk) => {
      banner += chunk;
      const base = /listening on (http:\/\/\S+)/.exec(banner)?.[1];
      if (!base || !banner.includes('try:')) return;
      clearTimeout(timer);
      const pid = child.pid ?? 0;
      resolve({
        base,
        pid,
        child,
        exited,
        stderrTail: () => stderr.slice(-2000),
        fds: () => readdirSync(`/proc/${pid}/fd`).length,
        probe: () =>
          new Promise<Probe>((done) => {
            const answer = (probe: Probe) => {
              clearTimeout(guard);
              // The probe's own collection is left out of its next figures; a pause lets the server settle after it.
              setTimeout(() => done(probe), 100);
            };
            // A server too stuck to answer within 15 s gets figures of NaN (printed as n/a), not a crash.
            const guard = setTimeout(() => {
              waiting.splice(waiting.indexOf(answer), 1);
              done({
                ...UNKNOWN_MEMORY,
                loopMaxMs: NaN,
                loopMaxRanMs: NaN,
                loopMaxRequests: NaN,
                gcMaxMs: NaN,
                forcedMs: NaN,
              });
            }, 15_000);
            waiting.push(answer);
            child.kill('SIGUSR2');
          }),
      });
    });
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${banner}${stderr}`)));
  });
}
