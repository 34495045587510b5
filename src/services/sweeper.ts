import type { Store } from '../store/store.js';

/** How often expired Idempotency-Key records are swept in real time (each against its tenant's clock). */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Sweeps expired Idempotency-Key records of every tenant on a timer, so a key that never comes
 * back does not keep its stored response for ever. A tenant's own requests sweep it too (see
 * Store.release), which is what makes `POST /_mock/clock/advance` free expired records at once.
 * The timer is unref'd: an idle app never keeps the process alive.
 */
export function startSweeper(store: Store, intervalMs = SWEEP_INTERVAL_MS): { stop(): void } {
  const timer = setInterval(() => store.sweepExpired(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
