/**
 * Server-sent events as they arrive in pieces: text in, whole messages out. The one parser of the kit's event
 * stream (events.ts) and of labelmock's own stream tests (test/sse-reader.ts).
 */

export interface SseMessage {
  event?: string;
  id?: string;
  /** The `data:` line, parsed as JSON (labelmock's events are JSON); its reader checks what it holds. */
  data?: unknown;
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

export class SseFrames {
  private buffer = '';
  private readonly decoder = new TextDecoder();

  /** Takes a chunk of the stream; answers the messages it completed, in order. */
  push(chunk: Uint8Array): SseMessage[] {
    this.buffer += this.decoder.decode(chunk, { stream: true });
    const messages: SseMessage[] = [];
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      messages.push(parseBlock(this.buffer.slice(0, end)));
      this.buffer = this.buffer.slice(end + 2);
    }
    return messages;
  }
}
