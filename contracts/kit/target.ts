/**
 * The implementation under test and a tiny HTTP client for it. Nothing here knows the mock's
 * internals: a target is a base URL, keys and a fetch, so the same contracts run in process or
 * over the network against any implementation of the interface.
 */
export interface Target {
  /** e.g. `http://127.0.0.1:3000`; contracts add `/v1/...` and `/_mock/...` themselves. */
  baseUrl: string;
  apiKey: string;
  /** A key of a different account: enables the tenant-isolation contracts. */
  otherApiKey?: string;
  fetch: typeof fetch;
}

export interface HttpResult {
  /** `METHOD /path?query`, for failure messages. */
  request: string;
  status: number;
  /** Parsed JSON, or the raw text when the body is not JSON. */
  body: any;
  text: string;
  headers: Headers;
}

type QueryValue = string | number | boolean | undefined;
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
}

/** HTTP Basic with the key as user name and an empty password, as the real service expects. */
export const basicAuth = (key: string): string => `Basic ${Buffer.from(`${key}:`, 'utf8').toString('base64')}`;

export function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) if (v !== undefined) params.append(key, String(v));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** One key's view of the target. */
export class Client {
  constructor(
    readonly target: Target,
    readonly key: string,
  ) {}

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, undefined, options);
  }

  post(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('POST', path, body, options);
  }

  put(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('PUT', path, body, options);
  }

  patch(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('PATCH', path, body, options);
  }

  delete(path: string, body?: unknown, options?: RequestOptions) {
    return this.request('DELETE', path, body, options);
  }

  async request(method: string, path: string, body: unknown, options: RequestOptions = {}): Promise<HttpResult> {
    const pathAndQuery = `${path}${queryString(options.query)}`;
    const url = `${this.target.baseUrl.replace(/\/+$/, '')}${pathAndQuery}`;
    const headers: Record<string, string> = { Accept: 'application/json' };
    const auth = options.authorization === undefined ? basicAuth(this.key) : options.authorization;
    if (auth !== null) headers.Authorization = auth;
    let payload: string | FormData | undefined = options.form ?? options.rawBody;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (typeof payload === 'string') headers['Content-Type'] = 'application/json';
    Object.assign(headers, options.headers);

    const response = await this.target.fetch(url, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: keep the text so assertions can show it.
    }
    return {
      request: `${method} ${pathAndQuery}`,
      status: response.status,
      body: parsed,
      text,
      headers: response.headers,
    };
  }
}
