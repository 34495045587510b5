import type { MiddlewareHandler } from 'hono';
import { type Clock, toIso } from '../runtime/clock.js';
import type { AppEnv, Principal } from './env.js';

/** Where log lines go: stdout in the CLI; a test passes its own to read them. */
export type LogSink = (line: string) => void;

/**
 * One write per line. A logger library (pino) would pay off with levels, transports or many fields;
 * one fixed line per request needs none of that, and a synchronous write keeps lines whole and in
 * order (stdout to a file, a pipe or a terminal is synchronous on Linux and macOS).
 */
export const stdoutSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`);
};

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

export const jsonLine = (entry: RequestLogEntry): string => JSON.stringify(entry);

/**
 * Logs every request once its answer is known, errors included (onError has set the response by
 * the time `next` returns). Mounted first, so it also times and sees what the other middleware
 * refuse (401, 405, 413). The time of day comes from the app's clock, so a test's pinned clock pins it.
 */
export function requestLog(format: (entry: RequestLogEntry) => string, clock: Clock, sink: LogSink) {
  const handler: MiddlewareHandler<AppEnv> = async (c, next) => {
    const started = performance.now();
    await next();
    const principal: Principal | undefined = c.get('principal');
    sink(
      format({
        time: toIso(clock.now()),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        tenant: principal?.fingerprint ?? '-',
      }),
    );
  };
  return handler;
}
