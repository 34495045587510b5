import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HarEntry } from '../../domain/har/schema.js';
import {
  type ApiError,
  bodyTooLarge,
  internalError,
  invalidParameter,
  notForwarded,
  targetUnreachable,
} from '../../errors/index.js';
import { errorBody } from '../../http/error-answer.js';
import { hostAccepter } from '../../http/host-check.js';
import type { RecordedAnswer } from '../../http/self-check/answer-check.js';
import { urlOnOrigin } from '../same-origin-url.js';
import { Redactor } from './redact.js';

/**
 * `labelmock record`: a proxy that forwards every request to the target (the real service), answers with the
 * target's answer, and keeps each exchange as a HAR entry, redacted as it is made and checked against the
 * documents. The archive is written when the recording stops.
 */

export interface RecorderOptions {
  /** Where requests go: `https://api.example.com` (a path prefix is kept). */
  target: string;
  port: number;
  host: string;
  /** Strings to take out wherever they stand (besides the built-in credentials). */
  redact: readonly string[];
  /** Where an answer does not fit the documents (labelmock's own, from answerChecker). */
  check?: (answer: RecordedAnswer) => string[];
  fetch?: typeof globalThis.fetch;
}

export interface Recorder {
  /** The proxy's own base URL. */
  url: string;
  /** Entries so far, oldest first (already redacted). */
  readonly entries: readonly HarEntry[];
  /** Stops accepting, waits for exchanges in flight, and answers what is left of the secrets (none: []). */
  stop(): Promise<string[]>;
  redactor: Redactor;
}

/** A recorded request body's limit: larger ones are refused (413), as the service refuses them. */
const MAX_BODY_BYTES = 100 * 1024 * 1024;
/**
 * What a recording keeps of one answer: the client gets every byte (streamed as it arrives), the archive the
 * first 16 MiB of each, and the size of the rest (a 420 MB download would not fit in one string to write).
 */
export const MAX_KEPT_ANSWER_BYTES = 16 * 1024 * 1024;

/** Headers of one hop only, never forwarded (RFC 9110 7.6.1), and those fetch sets itself. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
]);

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|[\w.+-]+\+json)|text\/)/i;

const mediaTypeOf = (value: string | null | undefined) => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

async function readBody(req: IncomingMessage): Promise<Buffer | 'too large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return 'too large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function forwardedHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i] as string;
    if (!HOP_HEADERS.has(name.toLowerCase())) headers.append(name, req.rawHeaders[i + 1] as string);
  }
  return headers;
}

const nameValues = (headers: Headers) => [...headers].map(([name, value]) => ({ name, value }));

/** An answer as streamed to the client: what the archive keeps of it, its whole size, and whether it was cut. */
interface StreamedAnswer {
  kept: Buffer;
  size: number;
  /** Why the answer is not all in `kept`: larger than a recording keeps, or it broke off. */
  cut?: string;
}

function contentOf(answer: StreamedAnswer, mimeType: string, isText: boolean): HarEntry['response']['content'] {
  const { kept, size, cut } = answer;
  if (cut !== undefined) return { size, mimeType, comment: `${size} bytes not kept (${cut})` };
  if (size === 0) return { size, mimeType };
  return isText
    ? { size, mimeType, text: kept.toString('utf8') }
    : { size, mimeType, text: kept.toString('base64'), encoding: 'base64' };
}

function entryOf(url: URL, req: IncomingMessage, body: Buffer, res: Response, answer: StreamedAnswer, started: number) {
  const requestType = req.headers['content-type'] ?? '';
  const responseType = res.headers.get('content-type') ?? '';
  const answerIsText = TEXT_TYPES.test(mediaTypeOf(responseType));
  const ms = performance.now() - started;
  const entry: HarEntry = {
    startedDateTime: new Date(Date.now() - ms).toISOString(),
    time: ms,
    request: {
      method: req.method ?? 'GET',
      url: url.href,
      httpVersion: `HTTP/${req.httpVersion}`,
      cookies: [],
      headers: nameValues(forwardedHeaders(req)),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(body.length > 0 && {
        postData: TEXT_TYPES.test(mediaTypeOf(requestType))
          ? { mimeType: requestType, text: body.toString('utf8') }
          : { mimeType: requestType, comment: `${body.length} bytes not kept (not text)` },
      }),
      headersSize: -1,
      bodySize: body.length,
    },
    response: {
      status: res.status,
      statusText: res.statusText || STATUS_CODES[res.status] || '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nameValues(res.headers),
      content: contentOf(answer, responseType || 'x-unknown', answerIsText),
      redirectURL: res.headers.get('location') ?? '',
      headersSize: -1,
      bodySize: answer.size,
    },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
  };
  return entry;
}

/** Answers an error in the standard body, unless an answer was already begun (then the socket is ended). */
function answerError(res: ServerResponse, err: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(err.status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(errorBody(err.status, err.message)));
}

/**
 * Sends the target's answer to the client as it arrives (with backpressure) and keeps its first
 * MAX_KEPT_ANSWER_BYTES for the archive. A client that leaves, or a target that breaks off, ends the copy:
 * what came so far is still recorded, with the reason.
 */
async function streamAnswer(answered: Response, res: ServerResponse): Promise<StreamedAnswer> {
  const kept: Buffer[] = [];
  let size = 0;
  let cut: string | undefined;
  try {
    for await (const chunk of answered.body ?? []) {
      size += chunk.length;
      if (size <= MAX_KEPT_ANSWER_BYTES) kept.push(Buffer.from(chunk));
      else cut ??= `over the ${MAX_KEPT_ANSWER_BYTES} bytes a recording keeps of an answer`;
      if (res.destroyed) return { kept: Buffer.alloc(0), size, cut: 'the client left before the end' };
      if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
  } catch (err) {
    res.destroy();
    return { kept: Buffer.alloc(0), size, cut: `the answer broke off: ${(err as Error).message}` };
  }
  res.end();
  return { kept: Buffer.concat(kept), size, ...(cut !== undefined && { cut }) };
}

/** Starts the proxy on `options.port` (0: any free port). */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  const prefix = target.pathname.replace(/\/$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const redactor = new Redactor(options.redact);
  const entries: HarEntry[] = [];
  const inFlight = new Set<Promise<void>>();
  // Bound to loopback, the proxy answers loopback Host names only, as the server does (DNS rebinding).
  const hosts = hostAccepter(options.host, []);

  /** Whether the request may be forwarded: the URL to send it to, or the error already answered. */
  function admit(req: IncomingMessage, res: ServerResponse): URL | undefined {
    const host = req.headers.host;
    if (hosts && host !== undefined && !hosts.accepts(host)) {
      const name = hosts.nameOf(host).slice(0, 100);
      const why = `names "${name}", which labelmock record does not answer to: it accepts ${hosts.named}`;
      answerError(res, invalidParameter('Host', why));
      return undefined;
    }
    const url = urlOnOrigin(target, req.url ?? '/');
    if (url instanceof URL) return url;
    answerError(res, notForwarded(url.refused));
    return undefined;
  }

  /** The answer's check against the documents; a check that fails (an answer nested too deep) is noted. */
  function problemsOf(answer: RecordedAnswer): string[] {
    try {
      return options.check?.(answer) ?? [];
    } catch (err) {
      return [`the answer could not be checked: ${(err as Error).message}`];
    }
  }

  async function exchange(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = admit(req, res);
    if (!url) return;
    const body = await readBody(req);
    if (body === 'too large') return answerError(res, bodyTooLarge(MAX_BODY_BYTES));
    let answered: Response;
    try {
      answered = await send(url, {
        method: req.method,
        headers: forwardedHeaders(req),
        ...(body.length > 0 && { body: new Uint8Array(body) }),
        redirect: 'manual',
      });
    } catch (err) {
      const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      return answerError(res, targetUnreachable(target.origin, reason));
    }
    // fetch has decoded the body: the client gets it plain (its length is known only when it was not encoded).
    const headers: Record<string, string> = {};
    for (const [name, value] of answered.headers) {
      if (!HOP_HEADERS.has(name) && name !== 'content-encoding') headers[name] = value;
    }
    const length = answered.headers.get('content-encoding') ? null : answered.headers.get('content-length');
    res.writeHead(answered.status, { ...headers, ...(length !== null && { 'content-length': length }) });
    const answer = await streamAnswer(answered, res);
    // Nothing from here on may end the process or lose the exchange: the client has its answer.
    const entry = entryOf(url, req, body, answered, answer, started);
    const problems = problemsOf({
      method: entry.request.method,
      path: url.pathname.slice(prefix.length) || '/',
      status: answered.status,
      mediaType: mediaTypeOf(answered.headers.get('content-type')),
      text: answer.cut === undefined ? answer.kept.toString('utf8') : '',
    });
    if (problems.length > 0) entry._labelmock = { violations: problems };
    redactor.redact(entry);
    entries.push(entry);
  }

  const server = createServer((req, res) => {
    // A socket error after the answer began (a client gone) is no crash of the recording.
    res.on('error', () => {});
    const done = exchange(req, res).catch((err: Error) => {
      answerError(res, internalError(err));
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  });
  await new Promise<void>((resolve) => server.listen(options.port, options.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    entries,
    redactor,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all(inFlight);
      await closed;
      return redactor.leaks(entries);
    },
  };
}
