import { parse as parseYaml } from 'yaml';
import { HarSchema } from '../../domain/har/schema.js';

/**
 * A recorded exchange as drift replays it, whatever file it came from: HAR 1.2 (`labelmock record`, browsers,
 * `GET /_mock/requests?format=har`), or a VCR cassette (vcrpy's and Ruby VCR's YAML).
 */
export interface Exchange {
  method: string;
  /** From `/v1/` or `/v2/` on: the service's own path, whatever host or prefix recorded it. */
  path: string;
  query: [string, string][];
  contentType: string | undefined;
  body: string | undefined;
  status: number;
  /** The answer: its JSON value, or its text when it is not JSON (undefined: none). */
  answer: unknown;
  /** Whether the recorded request carried an Authorization header (its value is redacted, or filtered out). */
  sentCredentials: boolean;
}

export class RecordingError extends Error {}

/** `https://api.example.com/v1/task/1?x=1` -> `/v1/task/1` and its query. */
function place(url: string): Pick<Exchange, 'path' | 'query'> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RecordingError(`"${url.slice(0, 200)}" is not an absolute URL`);
  }
  // Only what an HTTP client sent: `x:7/internal/admin` has no path drift could put on its base URL.
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RecordingError(`"${url.slice(0, 200)}" is not an http(s) URL`);
  }
  const at = parsed.pathname.search(/\/v[12](\/|$)/);
  return { path: at < 0 ? parsed.pathname : parsed.pathname.slice(at), query: [...parsed.searchParams] };
}

/** A body's JSON value, or its text when it is not JSON (undefined: no body). */
export function jsonOrText(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fromHar(value: unknown): Exchange[] {
  const parsed = HarSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RecordingError(`not a HAR 1.2 archive: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`);
  }
  return parsed.data.log.entries.map(({ request, response }) => {
    const header = (name: string) => request.headers.find((h) => h.name.toLowerCase() === name)?.value;
    const contentType = header('content-type');
    const base64 = response.content.encoding === 'base64';
    return {
      method: request.method.toUpperCase(),
      ...place(request.url),
      contentType: contentType ?? request.postData?.mimeType,
      body: request.postData?.text,
      status: response.status,
      answer: base64 ? response.content.text : jsonOrText(response.content.text),
      sentCredentials: header('authorization') !== undefined,
    };
  });
}

type VcrBody = string | { string?: string; encoding?: string } | undefined;
type VcrHeaders = Record<string, string | string[]> | undefined;
interface VcrInteraction {
  request?: { method?: string; uri?: string; body?: VcrBody; headers?: VcrHeaders };
  response?: { status?: { code?: number } | number; body?: VcrBody };
}

const vcrText = (body: VcrBody) => (typeof body === 'string' ? body : body?.string);

function vcrHeader(headers: VcrHeaders, name: string): string | undefined {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

/** vcrpy (`interactions`) and Ruby VCR (`http_interactions`) cassettes. */
function fromVcr(interactions: VcrInteraction[]): Exchange[] {
  return interactions.map((interaction, index) => {
    const { request, response } = interaction;
    if (!request?.uri || !request.method || !response?.status) {
      throw new RecordingError(`interaction ${index} lacks its request's method or uri, or its response's status`);
    }
    const status = typeof response.status === 'number' ? response.status : response.status.code;
    return {
      method: request.method.toUpperCase(),
      ...place(request.uri),
      contentType: vcrHeader(request.headers, 'content-type'),
      body: vcrText(request.body) || undefined,
      status: status ?? 0,
      answer: jsonOrText(vcrText(response.body)),
      sentCredentials: vcrHeader(request.headers, 'authorization') !== undefined,
    };
  });
}

/** The exchanges of a recording's text (HAR or a VCR cassette, told apart by their content). */
export function readRecording(text: string): Exchange[] {
  let value: unknown;
  try {
    value = text.trimStart().startsWith('{') ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new RecordingError(`neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const record = (value ?? {}) as Record<string, unknown>;
  if ('log' in record) return fromHar(value);
  const interactions = record.interactions ?? record.http_interactions;
  if (Array.isArray(interactions)) return fromVcr(interactions as VcrInteraction[]);
  throw new RecordingError('neither a HAR archive (log.entries) nor a VCR cassette (interactions)');
}
