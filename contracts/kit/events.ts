import type { ContractContext } from './contract.js';
import { fail, show } from './expect.js';
import { defaultWaitMs } from './run-scope.js';
import { SseFrames } from './sse-frames.js';
import { basicAuth, type Client, controlPlaneOf, normalizeBaseUrl, type Target } from './target.js';

/**
 * The event stream (GET /_mock/events, server-sent events) for contracts: a contract waits for an
 * event instead of polling. Opened through the target's fetch, so it runs in process and over HTTP.
 */

/**
 * An event's data (docs: control-plane events): `type`, `time`, and the fields of its kind (task_id, status,
 * batch, ...). Read a field, check it, then use it.
 */
export interface EventData {
  type?: string;
  time?: string;
  task_id?: string;
  [field: string]: unknown;
}

export interface StreamedEvent {
  /** The SSE `event:` line: task.created, request, ... */
  type: string;
  /** The parsed `data:` line. */
  data: EventData;
}

type Read = ReadableStreamReadResult<Uint8Array>;

export class EventStream {
  private readonly frames = new SseFrames();
  /** Events received and not yet taken by a wait. */
  private readonly unread: StreamedEvent[] = [];
  private pending: Promise<Read> | undefined;
  private ended = false;

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly abort: AbortController,
  ) {}

  /** The first event of `type` whose data passes `matches`, received since the stream opened; fails after the wait. */
  async waitFor(
    type: string,
    matches: (data: EventData) => boolean = () => true,
    timeoutMs = defaultWaitMs(),
  ): Promise<EventData> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.unread.findIndex((event) => event.type === type && matches(event.data));
      const [found] = index >= 0 ? this.unread.splice(index, 1) : [];
      if (found) return found.data;
      const left = deadline - Date.now();
      if (this.ended || left <= 0) break;
      await this.readFor(left);
    }
    const received = this.unread.map((event) => `${event.type} ${show(event.data)}`).join('; ');
    return fail(
      `no ${type} event ${this.ended ? 'before the stream ended' : `within ${timeoutMs} ms`}; ` +
        `${received ? `received: ${received}` : 'none received'}`,
    );
  }

  close(): void {
    this.ended = true;
    this.abort.abort();
    this.reader.cancel().catch(() => {});
  }

  /** Reads one chunk, waiting at most `ms` (a read still pending is reused by the next call). */
  private async readFor(ms: number): Promise<void> {
    this.pending ??= this.reader.read();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ms);
    });
    const read = await Promise.race([this.pending, late]).finally(() => clearTimeout(timer));
    if (!read) return;
    this.pending = undefined;
    if (read.done) this.ended = true;
    else {
      for (const { event, data } of this.frames.push(read.value)) {
        if (event !== undefined && data !== undefined) this.unread.push({ type: event, data: data as EventData });
      }
    }
  }
}

/** Subscribes `client`'s tenant to the event stream; closed when the contract ends. Skips without the route. */
export async function openEventStream(ctx: ContractContext, client: Client = ctx.api): Promise<EventStream> {
  if (!(await controlPlaneOf(ctx.target)).has('GET', '/_mock/events'))
    ctx.skip("target's control plane has no GET /_mock/events (not in its /_mock/openapi.json)");
  const stream = await subscribe(ctx.target, client.key);
  ctx.defer(async () => stream.close());
  return stream;
}

/** Subscribes the tenant of `key` to the event stream of `target`; the caller closes it. */
export async function subscribe(target: Pick<Target, 'baseUrl' | 'fetch'>, key: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await target.fetch(`${normalizeBaseUrl(target.baseUrl)}/_mock/events`, {
    headers: { Authorization: basicAuth(key), Accept: 'text/event-stream' },
    signal: abort.signal,
  });
  if (res.status !== 200 || !res.body)
    fail(`GET /_mock/events answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return new EventStream(res.body.getReader(), abort);
}
