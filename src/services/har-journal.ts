import { STATUS_CODES } from 'node:http';
import type { HarEntry } from '../domain/har/schema.js';
import type { JournalEntry } from '../domain/journal/schemas.js';
import { packageVersion } from '../version.js';
import { jsonArrayPieces } from './json-list-pieces.js';

/**
 * The request journal as HAR 1.2 (`GET /_mock/requests?format=har`): a labelmock session another tool can
 * replay or `labelmock drift` can compare. The journal keeps what HAR needs but the answer's headers and the
 * credentials (never kept); an entry the journal cut says so in `comment` and `_labelmock.truncated`.
 */

const nameValues = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));

const textOf = (body: unknown) => (typeof body === 'string' ? body : JSON.stringify(body));

function postDataOf(entry: JournalEntry): HarEntry['request']['postData'] {
  const mimeType = entry.headers['content-type'] ?? 'application/json';
  if (entry.parts) {
    const params = entry.parts.map(({ name, filename }) => ({
      name,
      ...(filename !== undefined && { fileName: filename }),
    }));
    return { mimeType, params };
  }
  return entry.body === null ? undefined : { mimeType, text: textOf(entry.body) };
}

/** One journal entry as a HAR entry; `origin` (the server's, as the client called it) makes its URL absolute. */
function harEntryOf(entry: JournalEntry, origin: string): HarEntry {
  const query = new URLSearchParams();
  for (const [name, values] of Object.entries(entry.query)) for (const value of values) query.append(name, value);
  const search = query.size > 0 ? `?${query}` : '';
  const postData = postDataOf(entry);
  const answer = entry.response_body === null ? undefined : textOf(entry.response_body);
  const started = Date.parse(entry.time) - entry.duration_ms;
  return {
    startedDateTime: new Date(Number.isNaN(started) ? 0 : started).toISOString(),
    time: entry.duration_ms,
    request: {
      method: entry.method,
      url: `${origin}${entry.path}${search}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(entry.headers),
      queryString: [...query].map(([name, value]) => ({ name, value })),
      ...(postData && { postData }),
      headersSize: -1,
      bodySize: postData?.text === undefined ? -1 : Buffer.byteLength(postData.text),
    },
    response: {
      status: entry.status,
      statusText: STATUS_CODES[entry.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: answer === undefined ? [] : [{ name: 'content-type', value: 'application/json' }],
      content: {
        size: answer === undefined ? 0 : Buffer.byteLength(answer),
        mimeType: answer === undefined ? 'x-unknown' : 'application/json',
        ...(answer !== undefined && { text: answer }),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: answer === undefined ? -1 : Buffer.byteLength(answer),
    },
    cache: {},
    timings: { send: 0, wait: entry.duration_ms, receive: 0 },
    ...(entry.truncated && { comment: 'The request journal cut a body, a header or the query of this entry.' }),
    _labelmock: {
      id: entry.id,
      ...(entry.truncated && { truncated: true }),
      ...(entry.fault !== undefined && { fault: entry.fault }),
      ...(entry.warning !== undefined && { warning: entry.warning }),
    },
  };
}

/** `{"log":{...,"entries":[...]}}` in pieces, oldest entry first. */
export function harPieces(entries: Iterable<JournalEntry>, origin: string): AsyncGenerator<string> {
  const creator = { name: 'labelmock', version: packageVersion() };
  const head = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
  return jsonArrayPieces(head, mappedEntries(entries, origin), ']}}');
}

function* mappedEntries(entries: Iterable<JournalEntry>, origin: string): Generator<HarEntry> {
  for (const entry of entries) yield harEntryOf(entry, origin);
}
