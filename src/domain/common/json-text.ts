import type { BytePool } from '../../runtime/byte-pool.js';

/**
 * A JSON answer already serialized, as UTF-8 bytes: a handler returns one to have it sent as is (a
 * task's bytes are kept per revision, a list page joins those bytes, with no string to build or
 * encode per request). `T` is the shape the bytes hold, so a route's handler still states what its
 * response schema documents.
 */
const COMMA = 0x2c;

export class JsonText<T> {
  /** Never set: carries the serialized shape for the type checker only. */
  declare readonly shape?: T;

  /**
   * @param lender the pool `bytes` were lent by, when they were: whoever sends them gives them
   * back once written (mount-routes), and nothing may keep them past that.
   */
  constructor(
    readonly bytes: Uint8Array,
    readonly lender?: BytePool,
  ) {}

  /**
   * `head`, then `items` (bytes kept from before) separated by commas, then `tail`: a JSON array in
   * an object, written into one buffer sized up front (lent by `pool` when given). A list page is
   * mostly these copies, so no part is encoded or allocated on its own (joining them with
   * Buffer.concat took four times as long).
   */
  static array<T>(head: string, items: readonly Uint8Array[], tail: string, pool?: BytePool): JsonText<T> {
    let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, items.length - 1);
    for (const item of items) size += item.byteLength;
    const out = pool ? pool.take(size) : Buffer.allocUnsafe(size);
    let at = out.write(head);
    for (const [i, item] of items.entries()) {
      if (i > 0) out[at++] = COMMA;
      out.set(item, at);
      at += item.byteLength;
    }
    out.write(tail, at);
    return new JsonText(out, pool?.isLent(out) ? pool : undefined);
  }

  get text(): string {
    return Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength).toString('utf8');
  }
}

/**
 * UTF-8 bytes of `text` in a buffer of their own: a small Buffer.from takes a slice of a shared 8 KB
 * pool, and keeping such a slice (as a cache does) would keep the whole pool alive.
 */
export function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
