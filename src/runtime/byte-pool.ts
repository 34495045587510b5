/**
 * Below this an answer is built in a buffer of its own: small writes stay in cache anyway. Above the
 * request journal's 8 KiB cap, which it relies on: it keeps a cut copy of larger answers, never them.
 */
export const MIN_POOLED_BYTES = 16 * 1024;
/** Above this too: such answers are rare, and a pool of them would hold megabytes idle. */
const MAX_POOLED_BYTES = 1024 * 1024;
/** Buffers kept idle per size class, about as many as pages in flight at once: at most 8 MB idle in all. */
const KEPT_PER_CLASS = 4;

/**
 * Buffers lent for one answer each and taken back once it is written. A list page of 100 tasks is
 * 120 KB assembled per request: written into a fresh buffer, that memory is cold (the copy took
 * four times as long as into a buffer used before), and the garbage collector must free 120 KB
 * per request besides. A buffer comes back only through `giveBack`, once: a buffer given back twice,
 * or one never lent, is ignored, so no two answers can ever share one. A buffer never given back (an
 * answer made in process, with no socket to wait on) is simply collected.
 */
export class BytePool {
  readonly #idle = new Map<number, ArrayBuffer[]>();
  readonly #lent = new WeakSet<ArrayBuffer>();

  /** `size` bytes to write into, lent when within the pooled sizes (`isLent` tells). */
  take(size: number): Buffer {
    if (size < MIN_POOLED_BYTES || size > MAX_POOLED_BYTES) return Buffer.allocUnsafe(size);
    const sizeClass = 2 ** Math.ceil(Math.log2(size));
    const buffer = this.#idle.get(sizeClass)?.pop() ?? new ArrayBuffer(sizeClass);
    this.#lent.add(buffer);
    return Buffer.from(buffer, 0, size);
  }

  isLent(bytes: Uint8Array): boolean {
    return this.#lent.has(bytes.buffer as ArrayBuffer);
  }

  /** Takes a lent buffer back for another answer; nothing may read `bytes` after this. */
  giveBack(bytes: Uint8Array): void {
    const buffer = bytes.buffer as ArrayBuffer;
    if (!this.#lent.delete(buffer)) return;
    const idle = this.#idle.get(buffer.byteLength) ?? [];
    if (idle.length < KEPT_PER_CLASS) idle.push(buffer);
    this.#idle.set(buffer.byteLength, idle);
  }
}
