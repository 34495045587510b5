/** Reads server-sent events from a response body, for the event stream's tests. */

export interface SseMessage {
  event?: string;
  id?: string;
  data?: any;
  /** The text of a comment line (`: keep-alive`), for a message that is one. */
  comment?: string;
}

function parseBlock(block: string): SseMessage {
  const message: SseMessage = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) message.comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) message.event = line.slice('event: '.length);
    else if (line.startsWith('id: ')) message.id = line.slice('id: '.length);
    else if (line.startsWith('data: ')) message.data = JSON.parse(line.slice('data: '.length));
  }
  return message;
}

export class SseReader {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('the answer has no body');
    this.reader = body.getReader();
  }

  /** The next message, comments included; throws once the stream has ended. */
  async next(): Promise<SseMessage> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parseBlock(block);
      }
      const { done, value } = await this.reader.read();
      if (done) throw new Error('the stream ended');
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** The next event (comments skipped). */
  async nextEvent(): Promise<SseMessage> {
    for (;;) {
      const message = await this.next();
      if (message.event) return message;
    }
  }

  /** Whether the stream ends (rather than sending anything but comments) within `ms`. */
  async ends(ms: number): Promise<boolean> {
    const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), ms));
    const ended = (async () => {
      try {
        for (;;) await this.next();
      } catch {
        return true;
      }
    })();
    return Promise.race([ended, timeout]);
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}
