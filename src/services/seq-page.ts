import { invalidParameter } from '../errors.js';

/**
 * Paging over a newest-first stream of record seqs: the token names the seq of the last record
 * returned, so the next page starts just below it, whatever was added since.
 */

/** Every list's page size when `limit` is absent (the real service's default for tasks). */
export const DEFAULT_PAGE_SIZE = 100;

const encodeToken = (seq: number) => Buffer.from(JSON.stringify({ seq })).toString('base64url');

/** The highest seq the page may hold: below the token's, or `lastSeq` without a token. */
export function pageStart(token: string | undefined, lastSeq: number, field: string): number {
  if (token === undefined) return lastSeq;
  try {
    const { seq } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { seq: unknown };
    if (typeof seq === 'number' && Number.isInteger(seq) && seq >= 0) return seq - 1;
  } catch {
    // fall through to the error below
  }
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

/** Up to `limit` accepted records from the stream, and the token of the next page (null on the last). */
export function takePage<T>(
  seqs: Iterable<number>,
  limit: number,
  lookup: (seq: number) => T | undefined,
  accept: (record: T) => boolean,
) {
  const records: T[] = [];
  let lastSeq = 0;
  for (const seq of seqs) {
    const record = lookup(seq);
    if (record === undefined || !accept(record)) continue;
    if (records.length === limit) return { records, next: encodeToken(lastSeq) };
    records.push(record);
    lastSeq = seq;
  }
  return { records, next: null };
}
