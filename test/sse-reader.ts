/** Reads server-sent events from a response body, for the event stream's tests (the kit's parser, SseFrames). */
import { SseFrames, type SseMessage } from '../contracts/kit/sse-frames.js';

export type { SseMessage };

export class SseReader {
  private readonly frames = new SseFrames();
  /** Messages read and not yet taken. */
  private readonly ready: SseMessage[] = [];
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('the answer has no body');
    this.reader = body.getReader();
  }

  /** The next message, comments included; throws once the stream has ended. */
  async next(): Promise<SseMessage> {
    for (;;) {
      const message = this.ready.shift();
      if (message) return message;
      const { done, value } = await this.reader.read();
      if (done) throw new Error('the stream ended');
      this.ready.push(...this.frames.push(value));
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
