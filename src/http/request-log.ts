import type { Context } from 'hono';
import { destination } from 'pino';
import type { LogFormat } from '../config/index.js';
import { type Clock, toIso } from '../runtime/clock.js';
import type { AppEnv, Principal } from './env.js';

/** Where log lines go when the embedder wants them (a test reads them); stdout otherwise. */
export type LogSink = (line: string) => void;

export interface RequestLogEntry {
  time: string;
  method: string;
  /** The path only: a query string may be long and is not what a reader scans for. */
  path: string;
  status: number;
  /** Until the answer's headers; a streamed body (state export) may go on after. */
  ms: number;
  /** `<mode>:<hash>`, the account's fingerprint (never the key, nor the account it may be), `-` without a key. */
  tenant: string;
}

/**
 * What a terminal or a log reader would act on rather than show: C0 and C1 controls (a decoded `%0D%0A` starts a
 * forged line, `%1B[` an escape sequence), line and paragraph separators, and the bidirectional overrides that
 * reorder what is shown.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what it finds
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` with each unshowable character written as `\xNN` or `\uNNNN`: one request is one line, shown as sent. */
function showable(text: string): string {
  UNSHOWABLE.lastIndex = 0;
  if (!UNSHOWABLE.test(text)) return text;
  return text.replace(UNSHOWABLE, (char) => {
    const code = char.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `12:00:01.250 GET    /v1/tasks                    200    3.1 ms  test:5b2a0c9e1d`: fixed columns first, aligned. */
export function prettyLine(entry: RequestLogEntry): string {
  const time = entry.time.slice(11, 23);
  const ms = `${entry.ms.toFixed(1)} ms`.padStart(9);
  const path = showable(entry.path);
  return `${time} ${entry.method.padEnd(6)} ${path.padEnd(28)} ${entry.status} ${ms}  ${entry.tenant}`;
}

/** A request log: how an entry is written, and how what is buffered reaches its destination. */
export interface RequestLogger {
  write(entry: RequestLogEntry): void;
  /** Writes out what is buffered (on shutdown); a no-op for a sink. */
  flush(): void;
}

/**
 * `entry` as pino writes a line (`{"level":30,"time":…,"method":…}`, so pino's tools read it), field by
 * field in RequestLogEntry's order: a third of what JSON.stringify of the whole entry costs per request.
 */
export function jsonLine(entry: RequestLogEntry): string {
  const { time, method, path, status, ms, tenant } = entry;
  const text = JSON.stringify;
  const head = `{"level":30,"time":${text(time)},"method":${text(method)},"path":${text(path)}`;
  return `${head},"status":${status},"ms":${ms},"tenant":${text(tenant)}}\n`;
}

/**
 * The log as pino writes it: `json` is pino's own line, `pretty` our aligned line. Lines go to an
 * asynchronous destination (pino's sonic-boom: a line is written at once when the destination is idle, and
 * lines that come meanwhile go out together in the next write): a synchronous write per request to a pipe,
 * what every CI job's stdout is, cost the server almost half its throughput.
 */
export function requestLogger(format: Exclude<LogFormat, 'off'>, sink?: LogSink): RequestLogger {
  const line = format === 'pretty' ? (entry: RequestLogEntry) => `${prettyLine(entry)}\n` : jsonLine;
  if (sink) return { write: (entry) => sink(line(entry).slice(0, -1)), flush: () => {} };
  const out = batched();
  // In buffer mode sonic-boom takes bytes; its types (write(string)) predate that mode.
  const writeBytes = out.write.bind(out) as unknown as (bytes: Uint8Array) => boolean;
  return { write: (entry) => writeBytes(Buffer.from(line(entry))), flush: () => out.flushSync() };
}

/** How long a line may wait in the buffer when fewer than BATCH_BYTES came: a person watching sees it at once. */
const FLUSH_EVERY_MS = 100;
const BATCH_BYTES = 8 * 1024;

/**
 * stdout through sonic-boom, written when BATCH_BYTES have gathered or FLUSH_EVERY_MS have passed (a timer
 * that never holds the process open): under load one write carries a hundred lines instead of a write per
 * request. Lines are handed over as bytes: in its text mode sonic-boom measures its whole pending buffer on
 * every write, which made a line cost 3 µs; as bytes 0.6 µs, the copy into a Buffer included.
 */
function batched(): ReturnType<typeof destination> {
  return destination({
    dest: 1,
    sync: false,
    minLength: BATCH_BYTES,
    contentMode: 'buffer',
    periodicFlush: FLUSH_EVERY_MS,
  });
}

/** The log's entry of an answered request: its status and the milliseconds it took (to a tenth). */
export function logEntry(c: Context<AppEnv>, clock: Clock, status: number, ms: number): RequestLogEntry {
  const principal: Principal | undefined = c.get('principal');
  return {
    time: toIso(clock.now()),
    method: c.req.method,
    path: c.req.path,
    status,
    ms: Math.round(ms * 10) / 10,
    tenant: principal?.fingerprint ?? '-',
  };
}
