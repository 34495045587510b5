import type { Context } from 'hono';
import { JOURNAL_BODY_CHARS } from '../domain/journal/limits.js';
import type { JournalPart } from '../domain/journal/schemas.js';
import { type Captured, cutText } from './journal-capture.js';

/**
 * The request body and the answer where they were not noted on the way: the body the route read
 * (Hono keeps its text), what an unmatched request left unread, and answers the route did not make
 * (errors, faults), read from a clone. Errors are small; the hot path never gets here.
 */

/** How long an unmatched request's unread body is waited for: a 404 must not wait on a slow client. */
const UNREAD_BODY_WAIT_MS = 100;
/** Error and fault answers are small and whole; the wait only guards against a stream that stalls. */
const CLONE_WAIT_MS = 1000;

export interface CapturedBody {
  text?: string;
  parts?: JournalPart[];
  cut: boolean;
}

const NO_BODY: CapturedBody = { cut: false };

/** The body as the route read it, a multipart body's parts, or (a miss) what was left unread; sync when it can be. */
export function capturedBody(c: Context): CapturedBody | Promise<CapturedBody> {
  const parts = c.get('journalParts');
  if (parts) return parts;
  // Read already (the route's JSON body): Hono answers the text it keeps.
  if (c.req.bodyCache.text !== undefined) {
    return c.req.text().then((text) => {
      const { value, cut } = cutText(text, JOURNAL_BODY_CHARS);
      return { text: value, cut };
    });
  }
  if (!mayHaveUnreadBody(c)) return NO_BODY;
  const raw = c.req.raw;
  if (!raw.body || raw.bodyUsed) return NO_BODY;
  // Left unread past the cap (not cancelled): cancelling a request's body may end its connection.
  return readUpTo(raw.body, UNREAD_BODY_WAIT_MS, false).then(({ value, cut }) => ({ text: value, cut }));
}

/**
 * Whether a body may be waiting unread, judged from the headers alone: touching `body` makes the Node
 * server build a whole Request, a cost a GET must not pay. Multipart bodies are never read here.
 */
function mayHaveUnreadBody(c: Context): boolean {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return false;
  const type = c.req.header('content-type');
  const length = c.req.header('content-length');
  // A Request built in process (app.request) has no content-length, but names its body's type.
  const announced = type !== undefined || c.req.header('transfer-encoding') !== undefined;
  if (length === '0' || (length === undefined && !announced)) return false;
  return !/multipart/i.test(type ?? '');
}

/** A JSON answer the route did not note (an error, a fault): its text from a clone, up to the cap. */
export async function clonedAnswer(res: Response): Promise<Captured<string | undefined>> {
  if (!res.body || !/json/i.test(res.headers.get('content-type') ?? '')) return { value: undefined, cut: false };
  const clone = res.clone().body;
  return clone ? readUpTo(clone, CLONE_WAIT_MS, true) : { value: undefined, cut: false };
}

/** At most the cap of a stream as text, waiting at most `waitMs`; the rest is cancelled or left unread. */
async function readUpTo(stream: ReadableStream<Uint8Array>, waitMs: number, cancel: boolean) {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), waitMs);
  });
  let cut = false;
  try {
    for (;;) {
      const chunk = await Promise.race([reader.read(), late]);
      if (chunk === 'late') cut = true;
      if (chunk === 'late' || chunk.done) break;
      chunks.push(chunk.value);
      total += chunk.value.length;
      if (total > JOURNAL_BODY_CHARS) {
        cut = true;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    if (cancel) reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
  return { value: Buffer.concat(chunks).toString('utf8', 0, Math.min(total, JOURNAL_BODY_CHARS)), cut };
}
