import { afterEach } from 'vitest';
import { type Answer, listenReceiver } from '../contracts/kit/receiver-server.js';

/**
 * A callback receiver on loopback (the kit's, contracts/kit/receiver-server.ts). `answer` picks the status for the
 * n-th request (0-based); 'hang' holds the request open until a test answers it or the receiver closes.
 */
export const startReceiver = (answer: (n: number) => Answer = () => 200) => listenReceiver(answer);

/** Polls until `check` passes (or throws its last error after 5 s). */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/**
 * Receivers for one test file: each test asks for as many as it needs, and all of them are closed
 * after it (call at the top level of the file).
 */
export function receiverPool() {
  const open: Awaited<ReturnType<typeof startReceiver>>[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async (answer?: Parameters<typeof startReceiver>[0]) => {
    const r = await startReceiver(answer);
    open.push(r);
    return r;
  };
}
