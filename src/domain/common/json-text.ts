/**
 * A JSON answer already serialized, as UTF-8 bytes: a handler returns one to have it sent as is (a
 * task's bytes are kept per revision, a list page joins those bytes, with no string to build or
 * encode per request). `T` is the shape the bytes hold, so a route's handler still states what its
 * response schema documents.
 */
export class JsonText<T> {
  /** Never set: carries the serialized shape for the type checker only. */
  declare readonly shape?: T;

  constructor(readonly bytes: Uint8Array) {}

  /** The bytes of several texts joined: `parts` are strings (encoded here) or bytes kept from before. */
  static join<T>(parts: (string | Uint8Array)[]): JsonText<T> {
    return new JsonText(Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part) : part))));
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
