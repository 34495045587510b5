import { invalidParameter } from '../errors/index.js';

/**
 * Paging over a newest-first stream of record seqs: the token names the seq of the last record
 * returned, so the next page starts just below it, whatever was added since.
 */

/** Every list's page size when `limit` is absent (the real service's default for tasks). */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * The one paging token of every list (tasks, files, quality tasks): opaque base64url JSON naming the seq of
 * the last record a page held, and for task lists the offset the request asked for.
 */
export interface PageToken {
  seq: number;
  offset?: number;
}

export const encodePageToken = (token: PageToken) => Buffer.from(JSON.stringify(token)).toString('base64url');

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** A token this server made, or the 400 naming `field` (`next_token`, `cursor`). */
export function decodePageToken(text: string, field: string): PageToken {
  try {
    const { seq, offset } = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (isCount(seq) && (offset === undefined || isCount(offset)))
      return { seq, ...(offset !== undefined && { offset }) };
  } catch {
    // fall through to the error below
  }
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

/** The highest seq the page may hold: below the token's, or `lastSeq` without a token. */
export function pageStart(token: string | undefined, lastSeq: number, field: string): number {
  return token === undefined ? lastSeq : decodePageToken(token, field).seq - 1;
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
    if (records.length === limit) return { records, next: encodePageToken({ seq: lastSeq }) };
    records.push(record);
    lastSeq = seq;
  }
  return { records, next: null };
}
