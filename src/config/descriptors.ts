import { readFileSync } from 'node:fs';

/** Descriptors kept for ordinary requests, callbacks, the data directory and the listening socket. */
export const RESERVED_DESCRIPTORS = 256;

/** The process's soft open-file limit (Linux: /proc/self/limits), or undefined where it cannot be read. */
export function openFilesLimit(
  read: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): number | undefined {
  try {
    const line = read('/proc/self/limits')
      .split('\n')
      .find((text) => text.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft === undefined || !/^\d+$/.test(soft) ? undefined : Number(soft);
  } catch {
    return undefined;
  }
}

/**
 * --max-held-requests lowered to fit the open-file limit: each held request is a socket, and a server whose
 * descriptors are all held by streams resets every new connection. Answers the configured value when it fits.
 */
export function fitHeldRequests(configured: number, callbacksInFlight: number, limit: number | undefined): number {
  if (limit === undefined) return configured;
  return Math.max(1, Math.min(configured, limit - RESERVED_DESCRIPTORS - callbacksInFlight));
}
