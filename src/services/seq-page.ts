import { invalidParameter } from '../errors/index.js';

/**
 * Paging tokens, the one codec of every list. A token is opaque base64url JSON that names its list and where
 * the next page starts: in a newest-first stream of record seqs, the seq of the last record a page held (so the
 * next page starts just below it, whatever was added since); in a list made per request (a delivery's tasks),
 * the position after the page. A token of one list handed to another is a 400, never a page of the wrong place.
 */

/** Every list's page size when `limit` is absent (the real service's default for tasks). */
export const DEFAULT_PAGE_SIZE = 100;

/** Lists paged by record seq. */
export type SeqList = 'tasks' | 'files' | 'training_attempts' | 'v2_tasks' | 'v2_batches' | 'v2_project_delivery_tasks';
/** Lists paged by position. */
export type PositionList = 'v2_delivery' | 'v2_delivery_tasks' | 'v2_dataset_delivery' | 'v2_dataset_tasks';

export interface SeqToken {
  seq: number;
  /** Task lists: the offset the first request asked for, carried for the answer's `offset`. */
  offset?: number;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

const encode = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');

/** The token's fields when it is one of `list`'s, or the 400 naming `field` (`next_token`, `cursor`). */
function decode(text: string, field: string, list: SeqList | PositionList): Record<string, unknown> {
  const noun = field === 'cursor' ? 'cursor' : 'token';
  let fields: unknown;
  try {
    fields = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    // not one of ours: the error below
  }
  if (fields === null || typeof fields !== 'object' || typeof (fields as { list?: unknown }).list !== 'string') {
    throw invalidParameter(field, `is not a ${noun} returned by this server`);
  }
  const named = (fields as { list: string }).list;
  if (named !== list) {
    throw invalidParameter(field, `is a ${noun} of another list (${named.slice(0, 40)}), not of this one (${list})`);
  }
  return fields as Record<string, unknown>;
}

export const encodeSeqToken = (list: SeqList, token: SeqToken) => encode({ list, ...token });

export function decodeSeqToken(text: string, field: string, list: SeqList): SeqToken {
  const { seq, offset } = decode(text, field, list);
  if (isCount(seq) && (offset === undefined || isCount(offset)))
    return { seq, ...(offset !== undefined && { offset }) };
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

export const encodePositionToken = (list: PositionList, position: number) => encode({ list, at: position });

export function decodePositionToken(text: string, field: string, list: PositionList): number {
  const { at } = decode(text, field, list);
  if (isCount(at)) return at;
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

/** The highest seq the page may hold: below the token's, or `lastSeq` without a token. */
export function pageStart(list: SeqList, token: string | undefined, lastSeq: number, field: string): number {
  return token === undefined ? lastSeq : decodeSeqToken(token, field, list).seq - 1;
}

/** Up to `limit` accepted records from the stream, and the token of the next page (null on the last). */
export function takePage<T>(
  list: SeqList,
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
    if (records.length === limit) return { records, next: encodeSeqToken(list, { seq: lastSeq }) };
    records.push(record);
    lastSeq = seq;
  }
  return { records, next: null };
}

/**
 * One page of a list held as an array (a delivery's task ids, a dataset delivery's tasks): the token names the
 * position of the page's next item, so a page costs what it holds however deep it starts. `pick` turns an item
 * into the page's entry, or skips it (a task deleted since, one a filter leaves out).
 */
export function positionPage<I, T = I>(
  list: PositionList,
  items: readonly I[],
  limit: number | undefined,
  token: string | undefined,
  pick: (item: I) => T | undefined = (item) => item as unknown as T,
) {
  const start = token === undefined ? 0 : decodePositionToken(token, 'next_token', list);
  const size = limit ?? DEFAULT_PAGE_SIZE;
  const page: T[] = [];
  for (let at = start; at < items.length; at++) {
    const entry = pick(items[at] as I);
    if (entry === undefined) continue;
    if (page.length === size) return { page, next_token: encodePositionToken(list, at) };
    page.push(entry);
  }
  return { page };
}
