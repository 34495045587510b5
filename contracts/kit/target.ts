import type { AnswerOf, Method } from './answers.js';
import { ContractFailure, SkipSignal } from './expect.js';

/**
 * The implementation under test and a tiny HTTP client for it. Nothing here knows the mock's
 * internals: a target is a base URL, keys and a fetch, so the same contracts run in process or
 * over the network against any implementation of the interface.
 */
export interface Target {
  /** e.g. `http://127.0.0.1:3000` or `https://host/v1`; contracts add `/v1/...` and `/_mock/...` themselves. */
  baseUrl: string;
  apiKey: string;
  /** A key of a different account: enables the tenant-isolation contracts. */
  otherApiKey?: string;
  /** The live key of the main key's account: enables the test/live separation contracts. */
  liveApiKey?: string;
  /** Keys whose data may be reset or imported over, and whose clock may be moved. None by default. */
  disposableKeys?: readonly string[];
  fetch: typeof fetch;
  /** Per-request timeout in ms (default 30000). */
  timeoutMs?: number;
  /**
   * How long asynchronous outcomes (completion, callbacks, list reads after writes) are polled, in ms (default 5000).
   */
  waitMs?: number;
  /** At most this many requests per second (default: no limit). */
  rps?: number;
  /** Retries of connection errors and of 429 answers (default 3). */
  retries?: number;
  /** Cancel the tasks each contract created once it ends, where they are still pending (default true). */
  cancelCreated?: boolean;
}

/** One request and its answer (or the network error), for failure reports. */
export interface Exchange {
  method: string;
  /** Path and query, as sent after the base URL. */
  path: string;
  /** The JSON request body, keys redacted, truncated; undefined when none was sent. */
  requestBody?: string;
  status?: number;
  responseBody?: string;
  /** The network error and its cause, when no answer came. */
  error?: string;
}

export interface HttpResult<Body = unknown> {
  /** `METHOD /path?query`, for failure messages. */
  request: string;
  status: number;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: Body;
  text: string;
  headers: Headers;
  exchange: Exchange;
}

/** `undefined` and `null` leave the key out (a list's `next_token: null` on its last page, say). */
type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  /** Repeated keys for arrays (`tags=a&tags=b`), as the official clients send lists. */
  query?: Query;
  headers?: Record<string, string>;
  /** Sent verbatim instead of the JSON of `body` (malformed JSON, other content types). */
  rawBody?: string;
  /** Replaces the Basic header of the client's key; `null` sends no Authorization at all. */
  authorization?: string | null;
  /** A multipart body (file uploads); fetch sets its Content-Type with the boundary. */
  form?: FormData;
  /** No control-plane route check, no retry of 429 (probes, rate-limit contracts). */
  raw?: boolean;
}

/** Where a client records its exchanges (the contract's context). */
export interface ExchangeSink {
  exchanges: Exchange[];
  /** Tasks created through this sink's clients, to cancel when the contract ends. */
  created: { client: Client; taskId: string }[];
}

/** HTTP Basic with the key as user name and an empty password, as the real service expects. */
export const basicAuth = (key: string): string => `Basic ${Buffer.from(`${key}:`, 'utf8').toString('base64')}`;

/** The server root: trailing slashes and a trailing `/v1` are dropped (contracts add `/v1` themselves). */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined && v !== null) params.append(key, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

const MAX_BODY_SHOWN = 2000;

/** Values of keys that look like secrets are replaced, so reports can be shared. */
export function redact(text: string, keys: readonly string[]): string {
  let out = text;
  for (const key of keys) if (key) out = out.split(key).join('<redacted key>');
  out = out.replace(/("(?:[^"]*(?:auth|key|secret|token|password)[^"]*)"\s*:\s*)"[^"]*"/gi, (m, head: string) =>
    /next_token|unique_id|idempotency/i.test(head) ? m : `${head}"<redacted>"`,
  );
  return out.length > MAX_BODY_SHOWN ? `${out.slice(0, MAX_BODY_SHOWN)}... (${out.length} chars)` : out;
}

/** The cause chain of a fetch error: `fetch failed` alone says nothing. */
export function describeNetworkError(err: unknown): string {
  const parts: string[] = [];
  let current = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = current.code ? `${current.code} ` : '';
    parts.push(`${code}${current.message ?? String(current)}`.trim());
    current = current.cause as typeof current;
  }
  return parts.filter((part, i) => part && parts.indexOf(part) === i).join(': ');
}

/** Errors where the request surely never reached the server: safe to retry any method. */
const NOT_SENT = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT/;
/** Errors that may have hit a request the server saw: retried for GET only. */
const BROKEN = /ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/;

const pacing = new WeakMap<Target, { next: number }>();

async function pace(target: Target): Promise<void> {
  if (!target.rps || target.rps <= 0) return;
  let slot = pacing.get(target);
  if (!slot) {
    slot = { next: 0 };
    pacing.set(target, slot);
  }
  const now = Date.now();
  const at = Math.max(now, slot.next);
  slot.next = at + 1000 / target.rps;
  if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Routes of a target's control plane, from its /_mock/openapi.json; fetched once per target. */
export interface ControlPlane {
  routes: readonly string[];
  has(method: string, path: string): boolean;
}

const controlPlanes = new WeakMap<Target, Promise<ControlPlane>>();

export function controlPlaneOf(target: Target): Promise<ControlPlane> {
  let probe = controlPlanes.get(target);
  if (!probe) {
    probe = new Client(target, target.apiKey).get('/_mock/openapi.json', { raw: true }).then(
      (res) => parseControlPlane(res.status === 200 ? res.body : undefined),
      () => parseControlPlane(undefined),
    );
    controlPlanes.set(target, probe);
  }
  return probe;
}

function parseControlPlane(document: unknown): ControlPlane {
  const routes: string[] = [];
  const matchers: { method: string; pattern: RegExp }[] = [];
  const paths = document && typeof document === 'object' ? (document as { paths?: unknown }).paths : undefined;
  for (const [path, item] of Object.entries(paths && typeof paths === 'object' ? paths : {})) {
    if (!path.startsWith('/_mock')) continue;
    for (const method of Object.keys(item ?? {})) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      routes.push(`${method.toUpperCase()} ${path}`);
      const source = path
        .split(/\{[^}]+\}/)
        .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
        .join('[^/]+');
      matchers.push({ method: method.toUpperCase(), pattern: new RegExp(`^${source}/?$`) });
    }
  }
  return { routes, has: (method, path) => matchers.some((m) => m.method === method && m.pattern.test(path)) };
}

/** Control routes that destroy or rewrite a tenant's data or time: only on disposable keys. */
const DESTRUCTIVE: readonly [string, RegExp][] = [
  ['POST', /^\/_mock\/reset\/?$/],
  ['PUT', /^\/_mock\/state\/?$/],
  ['POST', /^\/_mock\/clock\/advance\/?$/],
  ['DELETE', /^\/_mock\/requests\/?$/],
];

/**
 * What a request to `path` resolves to: its answer, typed by the route `path` is of. The path alone picks the
 * route (`NoInfer`): inferring back from where an answer is passed (`expectStatus(await client.get(...))`)
 * would weigh every route of the documents.
 */
type Answer<M extends Method, P extends string> = Promise<HttpResult<NoInfer<AnswerOf<M, P>>>>;

/**
 * One key's view of the target. An answer's body is typed as the documents declare the route's success
 * (answers.ts): a literal or template path (`/v1/task/${id}`) finds its route, any other string gives `unknown`.
 * An error answer's body is read through expect.ts (`expectErrorBody`), which checks it first.
 */
export class Client {
  constructor(
    readonly target: Target,
    readonly key: string,
    private readonly sink?: ExchangeSink,
  ) {}

  get<P extends string>(path: P, options?: RequestOptions): Answer<'get', P> {
    return this.request<'get', P>('GET', path, undefined, options);
  }

  post<P extends string>(path: P, body?: unknown, options?: RequestOptions): Answer<'post', P> {
    return this.request<'post', P>('POST', path, body, options);
  }

  put<P extends string>(path: P, body?: unknown, options?: RequestOptions): Answer<'put', P> {
    return this.request<'put', P>('PUT', path, body, options);
  }

  patch<P extends string>(path: P, body?: unknown, options?: RequestOptions): Answer<'patch', P> {
    return this.request<'patch', P>('PATCH', path, body, options);
  }

  delete<P extends string>(path: P, body?: unknown, options?: RequestOptions): Answer<'delete', P> {
    return this.request<'delete', P>('DELETE', path, body, options);
  }

  async request<M extends Method = Method, P extends string = string>(
    method: Uppercase<M>,
    path: P,
    body: unknown,
    options: RequestOptions = {},
  ): Answer<M, P> {
    if (path.startsWith('/_mock/') && !options.raw) await this.guardControl(method, path);
    const pathAndQuery = `${path}${queryString(options.query)}`;
    const url = `${normalizeBaseUrl(this.target.baseUrl)}${pathAndQuery}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const auth = options.authorization === undefined ? basicAuth(this.key) : options.authorization;
    if (auth !== null) headers.Authorization = auth;
    let payload: string | FormData | undefined = options.form ?? options.rawBody;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (typeof payload === 'string') headers['Content-Type'] = 'application/json';
    Object.assign(headers, options.headers);

    const keys = [this.target.apiKey, this.target.otherApiKey ?? '', this.target.liveApiKey ?? '', this.key];
    const exchange: Exchange = { method, path: pathAndQuery };
    if (typeof payload === 'string') exchange.requestBody = redact(payload, keys);
    else if (payload) exchange.requestBody = '(multipart form)';
    this.sink?.exchanges.push(exchange);
    const request = `${method} ${pathAndQuery}`;

    const retries = this.target.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      await pace(this.target);
      let response: Response;
      let text: string;
      try {
        response = await this.target.fetch(url, {
          method,
          headers,
          body: payload,
          signal: AbortSignal.timeout(this.target.timeoutMs ?? 30_000),
        });
        text = await response.text();
      } catch (err) {
        const cause = describeNetworkError(err);
        const retryable = NOT_SENT.test(cause) || (method === 'GET' && BROKEN.test(cause));
        if (retryable && attempt < retries) {
          await sleep(200 * 2 ** attempt);
          continue;
        }
        exchange.error =
          (err as Error)?.name === 'TimeoutError'
            ? `no answer within ${this.target.timeoutMs ?? 30_000} ms (--timeout)`
            : `network error: ${cause}`;
        throw new ContractFailure(`${request}: ${exchange.error}`, exchange);
      }
      if (response.status === 429 && !options.raw && attempt < retries) {
        const after = Number(response.headers.get('retry-after'));
        await sleep(Math.min(Number.isFinite(after) && after > 0 ? after * 1000 : 1000 * 2 ** attempt, 60_000));
        continue;
      }
      let parsed: unknown = text;
      try {
        parsed = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Not JSON: keep the text so assertions can show it.
      }
      exchange.status = response.status;
      exchange.responseBody = redact(text, keys);
      const taskId = (parsed as { task_id?: unknown } | undefined)?.task_id;
      if (
        method === 'POST' &&
        response.status === 200 &&
        /^\/v1\/task\/[a-z]+$/.test(path) &&
        typeof taskId === 'string'
      )
        this.sink?.created.push({ client: this, taskId });
      // As declared, not checked: the contract that reads it states what it expects field by field.
      const answer = parsed as NoInfer<AnswerOf<M, P>>;
      return { request, status: response.status, body: answer, text, headers: response.headers, exchange };
    }
  }

  private async guardControl(method: string, path: string): Promise<void> {
    const [bare = path] = path.split('?'); // split always has a first part
    const route = `${method} ${bare}`;
    if (DESTRUCTIVE.some(([m, pattern]) => m === method && pattern.test(bare))) {
      if (!(this.target.disposableKeys ?? []).includes(this.key))
        throw new SkipSignal(
          `${route} ${route.includes('clock') ? "moves a tenant's clock" : "resets or rewrites a tenant's data"}: ` +
            `only run on keys passed with --disposable-key`,
        );
    }
    const plane = await controlPlaneOf(this.target);
    if (route === 'GET /_mock/openapi.json') {
      if (plane.routes.length === 0)
        throw new SkipSignal('target has no /_mock control plane (no /_mock/openapi.json)');
      return;
    }
    if (!plane.has(method, bare))
      throw new SkipSignal(`target's control plane has no ${route} (not in its /_mock/openapi.json)`);
  }
}
