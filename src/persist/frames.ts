import { createHash } from 'node:crypto';

/**
 * A journal record on disk: `<checksum> <json>\n`, the checksum being the first 8 hex digits of the
 * SHA-1 of the JSON's UTF-8 bytes. A line cut short by a crash has no newline; a damaged one fails its
 * checksum: either way, reading stops there, since nothing after a bad record can be trusted to follow it.
 */

const CHECKSUM_DIGITS = 8;
const NEWLINE = 10;
const SPACE = 32;

/** Hashing the bytes (not a decoded string) lets a reader check a record before paying to decode it. */
const checksumOf = (data: Uint8Array | string) =>
  createHash('sha1').update(data).digest('hex').slice(0, CHECKSUM_DIGITS);

/** Frames one record. A raw newline would split it in two on reading, so it is refused here. */
export function frameLine(json: string): string {
  if (json.includes('\n')) throw new Error('a journal record cannot hold a raw newline');
  return `${checksumOf(json)} ${json}\n`;
}

/**
 * The valid records from the start of `buf`, up to the first torn, malformed or damaged one; `goodBytes`
 * is where a writer may go on from. Never throws: recovery must get an answer for any file a crash leaves.
 */
export function readFrames(buf: Buffer): { lines: string[]; goodBytes: number; problem?: string } {
  const lines: string[] = [];
  let at = 0;
  const cut = (what: string) => ({
    lines,
    goodBytes: at,
    problem: `${what} at byte ${at} (record ${lines.length + 1}); ${buf.length - at} bytes cut`,
  });
  while (at < buf.length) {
    const end = buf.indexOf(NEWLINE, at);
    if (end === -1) return cut('torn record');
    const bodyStart = at + CHECKSUM_DIGITS + 1;
    if (end < bodyStart || buf[at + CHECKSUM_DIGITS] !== SPACE) return cut('malformed record');
    // latin1 maps each byte to one character, so stray non-ASCII bytes cannot pass for hex digits.
    if (checksumOf(buf.subarray(bodyStart, end)) !== buf.toString('latin1', at, at + CHECKSUM_DIGITS)) {
      return cut('checksum mismatch');
    }
    let line: string;
    try {
      line = buf.toString('utf8', bodyStart, end);
    } catch {
      // Past V8's longest string (~512 MB): no writer makes one, but "never throws" holds for any bytes.
      return cut('oversized record');
    }
    lines.push(line);
    at = end + 1;
  }
  return { lines, goodBytes: at };
}
