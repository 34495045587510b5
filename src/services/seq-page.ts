import { createHash } from 'node:crypto';
import { invalidParameter } from '../errors/index.js';

/**
 * Paging tokens, the one codec of every list. A token is opaque base64url JSON that names its list and where
 * the next page starts: in a newest-first stream of record seqs, the seq of the last record a page held (so the
 * next page starts just below it, whatever was added since); in a list made per request (a delivery's tasks),
 * the position after the page. A token of one list handed to another is a 400, never a page of the wrong place;
 * so is a token handed back with other filters than the page that made it (as moto's paginator does, a token
 * carries a digest of the filters, `f`), since it would page a different list from a place in the first.
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

/** What a list was asked with beyond its page: its filters (limit, tokens and the answer's form left out). */
export type ListFilters = Readonly<Record<string, unknown>>;

/** Query keys that place or shape a page rather than choose what the list holds: never bound into a token. */
const PAGE_KEYS = new Set(['limit', 'offset', 'next_token', 'cursor', 'expand', 'opts', 'limited_response']);

/** The filters of a list's query: every key but those of PAGE_KEYS. */
export function filtersOf(query: object): ListFilters {
  return Object.fromEntries(Object.entries(query).filter(([key]) => !PAGE_KEYS.has(key)));
}

/** A short digest of the filters, the same for the same filters in any key order (absent ones left out). */
function filtersDigest(filters: ListFilters): string {
  const present = Object.keys(filters)
    .filter((key) => filters[key] !== undefined)
    .sort()
    .map((key) => [key, filters[key]]);
  return createHash('sha256').update(JSON.stringify(present)).digest('base64url').slice(0, 12);
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

const encode = (fields: Record<string, unknown>) => Buffer.from(JSON.stringify(fields)).toString('base64url');

/**
 * The token's fields when it is one of `list`'s and was made under `filters`, or the 400 naming `field`
 * (`next_token`, `cursor`). A token without a digest (made before tokens carried one) is taken as it is.
 */
function decode(
  text: string,
  field: string,
  list: SeqList | PositionList,
  filters?: ListFilters,
): Record<string, unknown> {
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
  const made = (fields as { f?: unknown }).f;
  if (filters !== undefined && made !== undefined && made !== filtersDigest(filters)) {
    throw invalidParameter(
      field,
      `was made for a page with other filters: ask with the filters of the page that gave it, or start again ` +
        `without a ${noun}`,
    );
  }
  return fields as Record<string, unknown>;
}

const digestOf = (filters: ListFilters | undefined) => (filters === undefined ? {} : { f: filtersDigest(filters) });

export const encodeSeqToken = (list: SeqList, token: SeqToken, filters?: ListFilters) =>
  encode({ list, ...token, ...digestOf(filters) });

export function decodeSeqToken(text: string, field: string, list: SeqList, filters?: ListFilters): SeqToken {
  const { seq, offset } = decode(text, field, list, filters);
  if (isCount(seq) && (offset === undefined || isCount(offset)))
    return { seq, ...(offset !== undefined && { offset }) };
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

export const encodePositionToken = (list: PositionList, position: number, filters?: ListFilters) =>
  encode({ list, at: position, ...digestOf(filters) });

export function decodePositionToken(text: string, field: string, list: PositionList, filters?: ListFilters): number {
  const { at } = decode(text, field, list, filters);
  if (isCount(at)) return at;
  throw invalidParameter(field, `is not a ${field === 'cursor' ? 'cursor' : 'token'} returned by this server`);
}

/** The highest seq the page may hold: below the token's, or `lastSeq` without a token. */
export function pageStart(
  list: SeqList,
  token: string | undefined,
  lastSeq: number,
  field: string,
  filters?: ListFilters,
): number {
  return token === undefined ? lastSeq : decodeSeqToken(token, field, list, filters).seq - 1;
}

/** Up to `limit` accepted records from the stream, and the token of the next page (null on the last). */
export function takePage<T>(
  list: SeqList,
  seqs: Iterable<number>,
  limit: number,
  lookup: (seq: number) => T | undefined,
  accept: (record: T) => boolean,
  filters?: ListFilters,
) {
  const records: T[] = [];
  let lastSeq = 0;
  for (const seq of seqs) {
    const record = lookup(seq);
    if (record === undefined || !accept(record)) continue;
    if (records.length === limit) return { records, next: encodeSeqToken(list, { seq: lastSeq }, filters) };
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
  filters?: ListFilters,
) {
  const start = token === undefined ? 0 : decodePositionToken(token, 'next_token', list, filters);
  const size = limit ?? DEFAULT_PAGE_SIZE;
  const page: T[] = [];
  for (let at = start; at < items.length; at++) {
    const entry = pick(items[at] as I);
    if (entry === undefined) continue;
    if (page.length === size) return { page, next_token: encodePositionToken(list, at, filters) };
    page.push(entry);
  }
  return { page };
}
