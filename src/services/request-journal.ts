import { pathMatcher } from '../domain/faults/path-pattern.js';
import { MAX_JOURNAL_LIMIT, SECRET_HEADERS } from '../domain/journal/limits.js';
import type { JournalEntry } from '../domain/journal/schemas.js';
import { toIso } from '../runtime/clock.js';
import { HEADER_SEPARATOR, type JournalBudget, type JournalRecord, RequestJournal } from '../store/request-journal.js';
import type { Tenant } from '../store/tenant.js';
import type { EventBus } from './events.js';

export interface JournalFilter {
  method?: string;
  path?: string;
  status?: number;
  since?: string;
  before?: string;
  task_id?: string;
  limit?: number;
}

/** Adds an entry to the tenant's journal (made on first use) and tells the tenant's event subscribers. */
export function recordRequest(
  tenant: Tenant,
  entry: JournalRecord,
  capacity: number,
  events: EventBus,
  budget?: JournalBudget,
): void {
  tenant.requestJournal ??= new RequestJournal(capacity, budget);
  const record = tenant.requestJournal.add(entry);
  if (!events.has(tenant.key)) return;
  const { timeMs, method, path, status } = record;
  events.publish(tenant.key, {
    type: 'request',
    time: toIso(timeMs),
    request_id: requestIdOf(record),
    method,
    path,
    status,
  });
}

/**
 * The tenant's entries that pass the filter, newest first, in their wire form, made one by one as they are
 * read (services/json-list-pieces.ts streams them). Which entries is fixed now: the ring may reuse a dropped
 * entry's answer buffer for the next, so a kept answer is read into text here, never later.
 */
export function listRequests(tenant: Tenant, filter: JournalFilter, order: Order = 'newest'): Iterable<JournalEntry> {
  const found = matchingRequests(tenant, filter);
  return mapped(order === 'newest' ? found : found.reverse(), entryOf);
}

/** A journal entry that passed a filter, with its answer read into text. */
export interface MatchedRequest extends JournalRecord {
  response: string | undefined;
}

/** The tenant's entries that pass the filter, newest first, as held (not yet in their wire form). */
export function matchingRequests(tenant: Tenant, filter: JournalFilter): MatchedRequest[] {
  const journal = tenant.requestJournal;
  if (!journal) return [];
  const method = filter.method?.toUpperCase();
  const matchesPath = filter.path === undefined ? undefined : pathMatcher(filter.path);
  const sinceSeq = filter.since === undefined ? 0 : seqOf(filter.since);
  const beforeSeq = filter.before === undefined ? Number.POSITIVE_INFINITY : seqOf(filter.before);
  const limit = filter.limit ?? MAX_JOURNAL_LIMIT;
  const found: MatchedRequest[] = [];
  for (const record of journal.newestFirst()) {
    if (record.seq <= sinceSeq || found.length >= limit) break;
    if (record.seq >= beforeSeq) continue;
    if (method !== undefined && record.method !== method) continue;
    if (filter.status !== undefined && record.status !== filter.status) continue;
    if (matchesPath && !matchesPath(record.path)) continue;
    const response = textOf(record.response);
    if (filter.task_id !== undefined && !touches(record, response, filter.task_id)) continue;
    found.push({ ...record, response });
  }
  return found;
}

/** Which end a list starts from: the journal's own order, or a recording's (HAR lists the oldest first). */
type Order = 'newest' | 'oldest';

function* mapped<T, U>(items: T[], map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

/** A request touched a task when its path names it, or its answer does (a creation, a list holding it). */
function touches(record: JournalRecord, response: string | undefined, taskId: string): boolean {
  return record.path.split('/').includes(taskId) || (response?.includes(`"task_id":"${taskId}"`) ?? false);
}

const textOf = (held: string | Uint8Array | undefined): string | undefined =>
  held === undefined || typeof held === 'string'
    ? held
    : Buffer.from(held.buffer, held.byteOffset, held.byteLength).toString();

/** Empties the tenant's journal; answers how many entries went. */
export function clearRequests(tenant: Tenant): number {
  // The journal stays (its ids keep growing); empty, it no longer keeps an otherwise empty tenant.
  return tenant.requestJournal?.clear() ?? 0;
}

/** `req_12` -> 12 (the query schema admits only that shape). */
const seqOf = (id: string): number => Number(id.slice('req_'.length));

/** A body as answered: the JSON value when the whole text parses, the text otherwise. */
function bodyValue(held: string | Uint8Array | undefined, cut: boolean): unknown {
  if (held === undefined || held.length === 0) return null;
  const text = textOf(held) ?? '';
  if (cut) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Lower-case names, repeated ones joined, credentials left out. */
function headersOf(joined: string): Record<string, string> {
  // No prototype: a header named `constructor` or `__proto__` is a name like any other, never Object's member.
  const headers: Record<string, string> = Object.create(null);
  const pairs = joined === '' ? [] : joined.split(HEADER_SEPARATOR);
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const name = (pairs[i] ?? '').toLowerCase();
    const text = pairs[i + 1] ?? '';
    if (SECRET_HEADERS.has(name)) continue;
    const before = headers[name];
    headers[name] = before === undefined ? text : `${before}, ${text}`;
  }
  return headers;
}

export const requestIdOf = (record: JournalRecord) => `req_${record.seq}`;

function entryOf(record: JournalRecord): JournalEntry {
  const { method, path, query, parts, status, truncated, fault, warning } = record;
  return {
    id: requestIdOf(record),
    time: toIso(record.timeMs),
    method,
    path,
    query,
    headers: headersOf(record.headers),
    body: bodyValue(record.body, record.bodyCut),
    ...(parts && { parts }),
    status,
    response_body: bodyValue(record.response, record.responseCut),
    duration_ms: record.durationMs,
    truncated,
    ...(fault && { fault }),
    ...(warning && { warning }),
  };
}
