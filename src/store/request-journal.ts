import type { AppliedFault } from '../domain/faults/schemas.js';
import { JOURNAL_BODY_CHARS } from '../domain/journal/limits.js';
import type { JournalPart } from '../domain/journal/schemas.js';

/**
 * One journaled request as held: texts only, each cut to its cap (domain/journal/limits.ts) before
 * it gets here, so an entry's memory has a bound. Bodies stay text and are parsed when read: a
 * parsed 8 KiB JSON document can take many times that as objects.
 */
export interface JournalRecord {
  /** Set by the journal: the entry's id is `req_<seq>`. */
  seq: number;
  /** On the tenant's virtual clock; formatted when read. */
  timeMs: number;
  method: string;
  path: string;
  query: Readonly<Record<string, string[]>>;
  /** Name/value pairs as received, joined by HEADER_SEPARATOR (credentials are left out when read). */
  headers: string;
  /** The request body's text (undefined: none, or multipart with `parts`). */
  body: string | undefined;
  parts: JournalPart[] | undefined;
  status: number;
  /**
   * A JSON answer: its text, or the very bytes the route sent (a task's, already held per revision).
   * Bytes past the cap are handed to `add` whole and kept as a copy of their first part.
   */
  response: string | Uint8Array | undefined;
  durationMs: number;
  /** Whether the body's or the answer's text was cut (then answered as text, not parsed). */
  bodyCut: boolean;
  responseCut: boolean;
  /** Whether anything was cut: those two, the path, query, headers or parts. */
  truncated: boolean;
  fault: AppliedFault | undefined;
}

/** Joins a request's header names and values: a line break is in no valid header name or value. */
export const HEADER_SEPARATOR = '\n';

/** A tenant's request journal: a ring of the last `capacity` entries. */
export class RequestJournal {
  private ring: JournalRecord[] = [];
  /** Where the next entry goes once the ring is full (the oldest entry's slot). */
  private head = 0;
  private lastSeq = 0;

  constructor(readonly capacity: number) {}

  get size(): number {
    return this.ring.length;
  }

  /** Keeps `record` (every field present, so all entries share one shape), numbering it. */
  add(record: JournalRecord): JournalRecord {
    this.lastSeq += 1;
    record.seq = this.lastSeq;
    const { response } = record;
    if (response instanceof Uint8Array && response.byteLength > JOURNAL_BODY_CHARS) {
      record.response = cutCopy(response, this.ring.length < this.capacity ? undefined : this.ring[this.head]);
    }
    if (this.ring.length < this.capacity) this.ring.push(record);
    else {
      this.ring[this.head] = record;
      this.head = (this.head + 1) % this.capacity;
    }
    return record;
  }

  /** Newest first. */
  *newestFirst(): Generator<JournalRecord> {
    const count = this.ring.length;
    for (let i = 1; i <= count; i += 1) {
      const record = this.ring[(this.head - i + count) % count];
      if (record) yield record;
    }
  }

  /** Removes every entry; ids keep growing, so a `since` taken before still means "after that one". */
  clear(): number {
    const count = this.ring.length;
    this.ring = [];
    this.head = 0;
    return count;
  }
}

/**
 * The first JOURNAL_BODY_CHARS of an answer's bytes, in the copy of the entry the ring drops when it
 * has one (a cut copy is always the journal's own, of exactly that size; readers decode entries at
 * once, so none holds it). A fresh copy per request is memory outside the JS heap that only a full
 * collection frees: one per list page made the server run a full collection every second under load.
 */
function cutCopy(bytes: Uint8Array, dropped: JournalRecord | undefined): Uint8Array {
  const reusable = dropped?.responseCut && dropped.response instanceof Uint8Array ? dropped.response : undefined;
  const copy = reusable ?? new Uint8Array(JOURNAL_BODY_CHARS);
  copy.set(bytes.subarray(0, JOURNAL_BODY_CHARS));
  return copy;
}
