import { createHash } from 'node:crypto';

/**
 * A journal record on disk: `<checksum> <json>\n`, the checksum being the first 8 hex digits of the
 * SHA-1 of the JSON's UTF-8 bytes. A line cut short by a crash has no newline; a damaged one fails its
 * checksum: either way, reading stops there.
 */

const CHECKSUM_DIGITS = 8;
const NEWLINE = 10;
const SPACE = 32;

const checksumOf = (bytes: Uint8Array | string) =>
  createHash('sha1').update(bytes).digest('hex').slice(0, CHECKSUM_DIGITS);

export function frameLine(json: string): string {
  if (json.includes('\n')) throw new Error('a journal record cannot hold a raw newline');
  return `${checksumOf(json)} ${json}\n`;
}

/** The valid records from the start of `buf`, up to the first torn or damaged one. Never throws. */
export function readFrames(buf: Buffer): { lines: string[]; goodBytes: number; problem?: string } {
  const lines: string[] = [];
  let at = 0;
  while (at < buf.length) {
    const end = buf.indexOf(NEWLINE, at);
    const cut = (what: string) => ({
      lines,
      goodBytes: at,
      problem: `${what} at byte ${at} (record ${lines.length + 1}); ${buf.length - at} bytes cut`,
    });
    if (end === -1) return cut('torn record');
    const bodyStart = at + CHECKSUM_DIGITS + 1;
    if (end < bodyStart || buf[at + CHECKSUM_DIGITS] !== SPACE) return cut('malformed record');
    const expected = buf.toString('latin1', at, at + CHECKSUM_DIGITS);
    if (checksumOf(buf.subarray(bodyStart, end)) !== expected) return cut('checksum mismatch');
    lines.push(buf.toString('utf8', bodyStart, end));
    at = end + 1;
  }
  return { lines, goodBytes: at };
}
