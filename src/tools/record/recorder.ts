import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HarEntry } from '../../domain/har/schema.js';
import type { RecordedAnswer } from '../../http/self-check/answer-check.js';
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

function entryOf(url: URL, req: IncomingMessage, body: Buffer, res: Response, answer: Buffer, started: number) {
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
      content: {
        size: answer.length,
        mimeType: responseType || 'x-unknown',
        ...(answer.length > 0 &&
          (answerIsText ? { text: answer.toString('utf8') } : { text: answer.toString('base64'), encoding: 'base64' })),
      },
      redirectURL: res.headers.get('location') ?? '',
      headersSize: -1,
      bodySize: answer.length,
    },
    cache: {},
    timings: { send: 0, wait: ms, receive: 0 },
  };
  return entry;
}

/** Starts the proxy on `options.port` (0: any free port). */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  const prefix = target.pathname.replace(/\/$/, '');
  const send = options.fetch ?? globalThis.fetch;
  const redactor = new Redactor(options.redact);
  const entries: HarEntry[] = [];
  const inFlight = new Set<Promise<void>>();

  async function exchange(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = new URL(`${prefix}${req.url ?? '/'}`, target.origin);
    const body = await readBody(req);
    if (body === 'too large') {
      res.writeHead(413, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ status_code: 413, error: `labelmock record takes bodies up to ${MAX_BODY_BYTES} bytes` }),
      );
      return;
    }
    let answered: Response;
    try {
      answered = await send(url, {
        method: req.method,
        headers: forwardedHeaders(req),
        ...(body.length > 0 && { body: new Uint8Array(body) }),
        redirect: 'manual',
      });
    } catch (err) {
      res.writeHead(502, { 'content-type': 'application/json' });
      const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      res.end(
        JSON.stringify({ status_code: 502, error: `labelmock record could not reach ${target.origin}: ${reason}` }),
      );
      return;
    }
    const answer = Buffer.from(await answered.arrayBuffer());
    // fetch has decoded the body: the client gets it plain, with its own length.
    const headers: Record<string, string> = {};
    for (const [name, value] of answered.headers) {
      if (!HOP_HEADERS.has(name) && name !== 'content-encoding') headers[name] = value;
    }
    res.writeHead(answered.status, { ...headers, 'content-length': String(answer.length) });
    res.end(answer);
    const entry = entryOf(url, req, body, answered, answer, started);
    const problems = options.check?.({
      method: entry.request.method,
      path: url.pathname.slice(prefix.length) || '/',
      status: answered.status,
      mediaType: mediaTypeOf(answered.headers.get('content-type')),
      text: answer.toString('utf8'),
    });
    if (problems && problems.length > 0) entry._labelmock = { violations: problems };
    redactor.redact(entry);
    entries.push(entry);
  }

  const server = createServer((req, res) => {
    const done = exchange(req, res).catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status_code: 500, error: `labelmock record: ${err.message}` }));
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
