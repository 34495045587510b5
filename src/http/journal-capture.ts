import type { Context } from 'hono';
import type { MultipartForm } from '../domain/files/upload-form.js';
import {
  JOURNAL_BODY_CHARS,
  JOURNAL_HEADER_CHARS,
  JOURNAL_MAX_HEADERS,
  JOURNAL_MAX_PARTS,
  JOURNAL_MAX_QUERY_VALUES,
  JOURNAL_PART_NAME_CHARS,
  JOURNAL_PATH_CHARS,
  JOURNAL_QUERY_CHARS,
  SECRET_HEADERS,
} from '../domain/journal/limits.js';
import type { JournalPart } from '../domain/journal/schemas.js';
import { deepFreeze } from '../store/frozen.js';
import { HEADER_SEPARATOR } from '../store/request-journal.js';
import { incomingOf } from './incoming.js';
import { Kept } from './kept.js';
import { queryText } from './query-parser.js';

/**
 * What the request journal keeps of a request and its answer, each cut to its cap, taken as cheaply
 * as the hot path allows: the answer is the text or bytes the route produced (noted by mount-routes,
 * never a clone of the Response, which would make the Node server give up its fast path for string
 * bodies), and headers are the Node request's raw list, kept as it is when within the cap.
 */

declare module 'hono' {
  interface ContextVariableMap {
    /** The JSON a route answered (mount-routes), for the request journal. */
    journalAnswer: { status: number; body: string | Uint8Array };
    /** A multipart body's first parts as read (multipart.ts), for the request journal; `cut` when any was left. */
    journalParts: { parts: JournalPart[]; cut: boolean };
  }
}

export interface Captured<T> {
  value: T;
  cut: boolean;
}

/** mount-routes: the JSON text or bytes a route answered with `status`. */
export function noteAnswer(c: Context, status: number, body: string | Uint8Array): void {
  c.set('journalAnswer', { status, body });
}

/**
 * multipart.ts: the first JOURNAL_MAX_PARTS parts of a form read whole (names and sizes only). Each kept name is
 * a copy within its cap: a slice of a 78,000-character name would keep the whole name, and the header it came
 * from, alive for as long as the journal keeps the entry.
 */
export function noteMultipart(c: Context, form: MultipartForm): void {
  let cut = false;
  const name = (text: string) => {
    const kept = cutText(text, JOURNAL_PART_NAME_CHARS);
    cut ||= kept.cut;
    return kept.value;
  };
  const parts: JournalPart[] = [];
  for (const [field, value] of Object.entries(form.fields)) {
    if (parts.length === JOURNAL_MAX_PARTS) break;
    parts.push({ name: name(field), bytes: Buffer.byteLength(value) });
  }
  for (const file of form.files) {
    if (parts.length === JOURNAL_MAX_PARTS) break;
    const filename = file.filename === undefined ? undefined : name(file.filename);
    parts.push({ name: name(file.name), ...(filename !== undefined && { filename }), bytes: file.bytes.length });
  }
  const count = Object.keys(form.fields).length + form.files.length;
  c.set('journalParts', { parts, cut: cut || count > parts.length });
}

/**
 * `text` within `max` characters. A cut one is copied: V8 keeps a slice as a view of the whole string,
 * and a journal entry must not hold a 5 MB body alive through its first 8 KiB.
 */
export function cutText(text: string, max: number): Captured<string> {
  if (text.length <= max) return { value: text, cut: false };
  return { value: Buffer.from(text.slice(0, max)).toString(), cut: true };
}

/**
 * The request headers as flat name/value pairs joined into one text (HEADER_SEPARATOR): one string
 * per entry instead of an array and a string per name and value, which the garbage collector would
 * copy for every journaled request (the journal's cost on a GET was mostly that). Over a socket the
 * pairs are the Node request's raw list (iterating the Fetch Headers would make the Node server
 * build a whole Headers object). Credentials are left out when read.
 */
export function capturedHeaders(c: Context): Captured<string> {
  const raw = incomingOf(c)?.rawHeaders;
  const pairs: string[] = raw ?? [];
  if (!raw) {
    c.req.raw.headers.forEach((text, name) => {
      pairs.push(name, text);
    });
  }
  let size = 0;
  for (const text of pairs) size += text.length;
  const within = size <= JOURNAL_HEADER_CHARS && pairs.length <= 2 * JOURNAL_MAX_HEADERS;
  const kept = within ? pairs : withinCap(pairs);
  return { value: kept.join(HEADER_SEPARATOR), cut: !within };
}

/** Pairs without credentials until the cap is spent. */
function withinCap(pairs: readonly string[]): string[] {
  const kept: string[] = [];
  let room = JOURNAL_HEADER_CHARS;
  for (let i = 0; i + 1 < pairs.length && kept.length < 2 * JOURNAL_MAX_HEADERS; i += 2) {
    const name = pairs[i] ?? '';
    const text = pairs[i + 1] ?? '';
    if (SECRET_HEADERS.has(name.toLowerCase()) || name.length + text.length > room) continue;
    kept.push(name, text);
    room -= name.length + text.length;
  }
  return kept;
}

/** The query of a request without one: shared (entries are read, never changed), not an object per entry. */
const NO_QUERY: Readonly<Record<string, string[]>> = Object.freeze({});

/** Query texts whose capture a journal keeps (bounded: kept.ts); longer ones are captured each time. */
const MAX_KEPT_QUERIES = 256;
const MAX_KEPT_QUERY_CHARS = 512;

export type QueryCaptures = Kept<Captured<Readonly<Record<string, string[]>>>>;

/** What `capturedQuery` keeps, per app: entries with the same query text share one frozen capture. */
export const queryCaptures = (): QueryCaptures => new Kept(MAX_KEPT_QUERIES, MAX_KEPT_QUERY_CHARS);

/** The query, each value within the caps; a text seen before answers its kept capture (no decoding). */
export function capturedQuery(c: Context, kept: QueryCaptures): Captured<Readonly<Record<string, string[]>>> {
  const text = queryText(c);
  if (text === '') return { value: NO_QUERY, cut: false };
  const found = kept.get(text);
  if (found) return found;
  const value: Record<string, string[]> = {};
  let room = JOURNAL_QUERY_CHARS;
  let count = 0;
  let cut = false;
  for (const [name, values] of Object.entries(c.req.queries())) {
    const taken: string[] = [];
    for (const text of values) {
      if (name.length + text.length > room || count >= JOURNAL_MAX_QUERY_VALUES) cut = true;
      else {
        taken.push(text);
        room -= name.length + text.length;
        count += 1;
      }
    }
    if (taken.length > 0) value[name] = taken;
  }
  return kept.keep(text, deepFreeze({ value, cut }));
}

export const capturedPath = (path: string) => cutText(path, JOURNAL_PATH_CHARS);

/**
 * The answer the route noted, when it is the one going out: its text or bytes are kept as they are
 * (a task's bytes are already held per revision) unless past the cap: text is cut here, bytes are
 * handed over whole and the journal keeps a cut copy in a buffer it reuses (store/request-journal.ts).
 * Undefined when another answer replaced it (an error, a fault): journal-bodies.ts reads that one.
 */
export function notedAnswer(c: Context): Captured<string | Uint8Array> | undefined {
  const noted = c.get('journalAnswer');
  if (!noted || noted.status !== c.res.status) return undefined;
  const { body } = noted;
  if (typeof body === 'string') return cutText(body, JOURNAL_BODY_CHARS);
  return { value: body, cut: body.byteLength > JOURNAL_BODY_CHARS };
}
