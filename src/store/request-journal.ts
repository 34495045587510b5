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
  /** Its place in the order things happened in the tenant (Tenant.nextHappening), taken when the answer was ready. */
  happening: number | undefined;
  /** Whether the body's or the answer's text was cut (then answered as text, not parsed). */
  bodyCut: boolean;
  responseCut: boolean;
  /** Whether anything was cut: those two, the path, query, headers or parts. */
  truncated: boolean;
  fault: AppliedFault | undefined;
  /** What a lenient read ignored, as the Labelmock-Warning header said it (undefined: nothing). */
  warning: string | undefined;
}

/** Joins a request's header names and values: a line break is in no valid header name or value. */
export const HEADER_SEPARATOR = '\n';

/**
 * What all tenants' journals hold together (--max-journal-bytes). Per-tenant rings multiply by the number of
 * keys; past the budget the journal holding the most drops its oldest entries, so a busy tenant gives way
 * before a quiet one loses anything.
 */
export class JournalBudget {
  private total = 0;
  private readonly holders = new Set<RequestJournal>();

  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.total;
  }

  /** @internal RequestJournal's: `journal` grew or shrank by `delta` bytes. */
  changed(journal: RequestJournal, delta: number): void {
    this.total += delta;
    if (journal.size > 0) this.holders.add(journal);
    else this.holders.delete(journal);
    while (this.total > this.maxBytes) {
      let largest: RequestJournal | undefined;
      for (const holder of this.holders) if (!largest || holder.bytes > largest.bytes) largest = holder;
      if (!largest?.dropOldest()) return;
    }
  }
}

/** A record's memory, roughly: its texts at two bytes a character, the answer's bytes, 1 KiB of objects. */
function sizeOf(record: JournalRecord): number {
  const { response } = record;
  const answer = response === undefined ? 0 : typeof response === 'string' ? 2 * response.length : response.byteLength;
  const texts = record.path.length + record.headers.length + (record.body?.length ?? 0);
  let query = 0;
  for (const key in record.query) query += 2 * key.length + 64 * (record.query[key]?.length ?? 0);
  // A multipart body's parts: their names (cut and copied when journaled) and an object each.
  let parts = 0;
  for (const part of record.parts ?? []) parts += 2 * (part.name.length + (part.filename?.length ?? 0)) + 64;
  return 2 * texts + answer + query + parts + 1024;
}

/** A tenant's request journal: the last `capacity` entries, oldest first in a circular buffer. */
export class RequestJournal {
  private slots: (JournalRecord | undefined)[] = [];
  /** The oldest entry's slot. */
  private start = 0;
  private count = 0;
  private lastSeq = 0;
  private held = 0;

  constructor(
    readonly capacity: number,
    private readonly budget?: JournalBudget,
  ) {}

  get size(): number {
    return this.count;
  }

  /** The entries' memory, as the app-wide budget counts it. */
  get bytes(): number {
    return this.held;
  }

  /** Keeps `record` (every field present, so all entries share one shape), numbering it. */
  add(record: JournalRecord): JournalRecord {
    this.lastSeq += 1;
    record.seq = this.lastSeq;
    const full = this.count === this.capacity;
    const dropped = full ? this.slots[this.start] : undefined;
    const { response } = record;
    if (response instanceof Uint8Array && response.byteLength > JOURNAL_BODY_CHARS) {
      record.response = cutCopy(response, dropped);
    }
    let delta = sizeOf(record);
    if (full) {
      delta -= dropped ? sizeOf(dropped) : 0;
      this.slots[this.start] = record;
      this.start = (this.start + 1) % this.capacity;
    } else {
      this.slots[(this.start + this.count) % this.capacity] = record;
      this.count += 1;
    }
    this.held += delta;
    this.budget?.changed(this, delta);
    return record;
  }

  /** Newest first. */
  *newestFirst(): Generator<JournalRecord> {
    for (let i = this.count - 1; i >= 0; i -= 1) {
      const record = this.slots[(this.start + i) % this.capacity];
      if (record) yield record;
    }
  }

  /** Drops the oldest entry (the app-wide budget asks); answers whether there was one. */
  dropOldest(): boolean {
    const oldest = this.count === 0 ? undefined : this.slots[this.start];
    if (!oldest) return false;
    this.slots[this.start] = undefined;
    this.start = (this.start + 1) % this.capacity;
    this.count -= 1;
    const size = sizeOf(oldest);
    this.held -= size;
    this.budget?.changed(this, -size);
    return true;
  }

  /** Removes every entry; ids keep growing, so a `since` taken before still means "after that one". */
  clear(): number {
    const count = this.count;
    const held = this.held;
    this.slots = [];
    this.start = 0;
    this.count = 0;
    this.held = 0;
    this.budget?.changed(this, -held);
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
