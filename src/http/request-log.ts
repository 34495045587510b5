import type { MiddlewareHandler } from 'hono';
import { type DestinationStream, destination } from 'pino';
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

/** `12:00:01.250 GET    /v1/tasks                    200    3.1 ms  test:5b2a0c9e1d`: fixed columns first, aligned. */
export function prettyLine(entry: RequestLogEntry): string {
  const time = entry.time.slice(11, 23);
  const ms = `${entry.ms.toFixed(1)} ms`.padStart(9);
  return `${time} ${entry.method.padEnd(6)} ${entry.path.padEnd(28)} ${entry.status} ${ms}  ${entry.tenant}`;
}

/** A request log: how an entry is written, and how what is buffered reaches its destination. */
export interface RequestLogger {
  write(entry: RequestLogEntry): void;
  /** Writes out what is buffered (on shutdown); a no-op for a sink. */
  flush(): void;
}

/**
 * The log as pino writes it: `json` is pino's own line (`{"level":30,"time":…,"method":…}`, so pino's tools
 * read it), `pretty` our aligned line. Lines go to an asynchronous destination (pino's sonic-boom: a line is
 * written at once when the destination is idle, and lines that come meanwhile go out together in the next
 * write): a synchronous write per request to a pipe, what every CI job's stdout is, cost the server almost
 * half its throughput.
 */
export function requestLogger(format: Exclude<LogFormat, 'off'>, sink?: LogSink): RequestLogger {
  const out: DestinationStream & { flushSync?: () => void } = sink
    ? { write: (text: string) => sink(text.endsWith('\n') ? text.slice(0, -1) : text) }
    : batched();
  const flush = () => out.flushSync?.();
  if (format === 'pretty') return { write: (entry) => out.write(`${prettyLine(entry)}\n`), flush };
  return { write: (entry) => out.write(`{"level":30,${JSON.stringify(entry).slice(1)}\n`), flush };
}

/** How long a line may wait in the buffer when fewer than BATCH_BYTES came: a person watching sees it at once. */
const FLUSH_EVERY_MS = 100;
const BATCH_BYTES = 8 * 1024;

/**
 * stdout through sonic-boom, written when BATCH_BYTES have gathered or FLUSH_EVERY_MS have passed: under load
 * one write carries a hundred lines instead of a write per request.
 */
function batched() {
  const out = destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  // A timer that never holds the process open; flushing an empty buffer writes nothing.
  setInterval(() => out.flush(), FLUSH_EVERY_MS).unref();
  return out;
}

/**
 * Logs every request once its answer is known, errors included (onError has set the response by
 * the time `next` returns). Mounted first, so it also times and sees what the other middleware
 * refuse (401, 405, 413). The time of day comes from the app's clock, so a test's pinned clock pins it.
 */
export function requestLog(logger: RequestLogger, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    await next();
    const principal: Principal | undefined = c.get('principal');
    logger.write({
      time: toIso(clock.now()),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      tenant: principal?.fingerprint ?? '-',
    });
  };
}
