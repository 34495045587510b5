import { defaultWaitMs } from './run-scope.js';

export interface EventuallyOptions {
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls an assertion until it passes or a deadline expires. Completion, delayed modes and a real
 * service's own processing are asynchronous, so contracts wait for outcomes instead of assuming
 * they are already visible.
 */
export async function eventually<T>(check: () => Promise<T>, options: EventuallyOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? defaultWaitMs();
  const intervalMs = options.intervalMs ?? 50;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() >= deadline) {
        (err as Error).message = `still failing after ${timeoutMs} ms (--wait): ${(err as Error).message}`;
        throw err;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
