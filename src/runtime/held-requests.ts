/**
 * Requests that hold a connection open for long, app-wide: event streams, and requests a fault or --latency
 * delays or leaves hanging. Each holds a socket, hence a file descriptor: per-tenant caps multiply by the
 * number of keys, so this one bound keeps descriptors in reserve and the API answering (--max-held-requests).
 */
export class HeldRequests {
  private held = 0;

  constructor(readonly max: number) {}

  get count(): number {
    return this.held;
  }

  /** A release function (safe to call twice), or undefined when `max` requests are held already. */
  take(): (() => void) | undefined {
    if (this.held >= this.max) return undefined;
    this.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held -= 1;
    };
  }
}
