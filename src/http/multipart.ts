import { once } from 'node:events';
import { Busboy, type BusboyFileStream, type BusboyInstance } from '@fastify/busboy';
import type { Context } from 'hono';
import type { MultipartForm } from '../domain/files/upload-form.js';
import { ApiError, invalidParameter, malformedBody, notMultipart } from '../errors/index.js';
import { type BodyReader, bodyReader } from './body-reader.js';
import { noteMultipart } from './journal-capture.js';
import { Spool } from './spool.js';

/**
 * Reads a multipart/form-data body with busboy, streaming: Request.formData() would buffer the
 * whole body first. Every limit is checked as bytes arrive, and a file part is collected in a
 * Spool (on disk once it is large), so an oversize upload is refused early and never held in memory.
 */

export interface MultipartLimits {
  fileBytes: number;
  fieldBytes: number;
  totalBytes: number;
  /** The 413 for a file part (or the whole body, `name` "body") over its limit. */
  tooLarge: (name: string) => ApiError;
  /** What the route expects, for the 400 on a body that is not multipart. */
  expected: string;
  /**
   * Text fields that may arrive as file parts (`curl -F metadata=@meta.json` sends one): read as
   * UTF-8 text within `fieldBytes`, like a plain field, rather than left aside as a file.
   */
  textFields?: readonly string[];
  /** Told of each chunk's bytes before it is kept; throws to refuse the upload (an app-wide memory budget). */
  arriving?: (bytes: number) => void;
}

/** A form has a handful of parts; more is a client bug, not a form. */
const MAX_PARTS = 100;

const malformed = (why: string) => malformedBody('multipart/form-data', why);
const fieldTooLarge = (name: string, max: number) => invalidParameter(name, `must be at most ${max} bytes`);
const repeated = (name: string) => invalidParameter(name, 'is given more than once');

export async function readMultipart(c: Context, limits: MultipartLimits): Promise<MultipartForm> {
  const contentType = c.req.header('content-type') ?? '';
  if (!/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) {
    throw notMultipart(limits.expected, contentType);
  }
  // Pulled from the socket one chunk at a time, each written on before the next is read: a slow
  // disk holds the client back rather than the body piling up in memory (http/body-reader.ts).
  const reader = bodyReader(c);
  if (!reader) throw malformed('the body is empty');
  const form = new FormCollector(contentType, limits);
  try {
    let total = 0;
    for (let chunk = await reader.read(); chunk; chunk = await reader.read()) {
      total += chunk.length;
      if (total > limits.totalBytes) throw limits.tooLarge('body');
      // Counted before it is kept: an app-wide budget refuses the upload as it crosses it.
      limits.arriving?.(chunk.length);
      await form.write(chunk);
    }
    const read = await form.end();
    noteMultipart(c, read);
    return read;
  } catch (err) {
    await form.abort();
    void discardRest(reader);
    throw err instanceof ApiError ? err : malformed((err as Error)?.message ?? String(err));
  }
}

/** Feeds busboy and gathers its fields and files; the first rule broken wins. */
class FormCollector {
  private readonly parser: BusboyInstance;
  private readonly form: MultipartForm = { fields: {}, files: [] };
  private readonly names = new Set<string>();
  private readonly spools: Spool[] = [];
  private readonly streams: BusboyFileStream[] = [];
  private readonly collecting: Promise<void>[] = [];
  private failure: Error | undefined;
  private readonly finished: Promise<unknown>;

  constructor(
    contentType: string,
    private readonly limits: MultipartLimits,
  ) {
    try {
      this.parser = new Busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: limits.fileBytes, fieldSize: limits.fieldBytes, parts: MAX_PARTS },
        // A part is a file when it names a file name; a bare octet-stream part stays a (bad) field.
        isPartAFile: (_name, _type, filename) => filename !== undefined,
      });
    } catch (err) {
      throw malformed((err as Error).message);
    }
    this.parser.on('field', (name, value, _nameTruncated, valueTruncated) => this.field(name, value, valueTruncated));
    this.parser.on('file', (name, stream, filename, _encoding, mimeType) =>
      this.file(name, stream, filename, mimeType),
    );
    this.parser.on('partsLimit', () => this.fail(malformed(`more than ${MAX_PARTS} parts`)));
    this.finished = once(this.parser, 'finish');
    // Rejections of `finished` are read in end(); until then they must not go unhandled.
    this.finished.catch(() => {});
  }

  async write(chunk: Uint8Array): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.parser.write(chunk)) await Promise.race([once(this.parser, 'drain'), this.finished]);
    if (this.failure) throw this.failure;
  }

  async end(): Promise<MultipartForm> {
    this.parser.end();
    await this.finished;
    await Promise.all(this.collecting);
    if (this.failure) throw this.failure;
    return this.form;
  }

  async abort(): Promise<void> {
    this.parser.destroy();
    // A file stream cut off mid-part never ends by itself: destroying it ends its collector.
    for (const stream of this.streams) stream.destroy();
    await Promise.allSettled(this.collecting);
    await Promise.all(this.spools.map((spool) => spool.discard()));
  }

  private fail(err: Error): void {
    this.failure ??= err;
  }

  private claim(name: string): boolean {
    if (this.names.has(name)) {
      this.fail(repeated(name));
      return false;
    }
    this.names.add(name);
    return true;
  }

  private field(name: string, value: string, truncated: boolean): void {
    if (truncated) this.fail(fieldTooLarge(name, this.limits.fieldBytes));
    else if (this.claim(name)) this.form.fields[name] = value;
  }

  private file(name: string, stream: BusboyFileStream, filename: string, mimeType: string): void {
    if (!this.claim(name)) {
      stream.resume();
      return;
    }
    this.streams.push(stream);
    if (this.limits.textFields?.includes(name)) {
      this.collecting.push(this.collectText(name, stream));
      return;
    }
    const spool = new Spool();
    this.spools.push(spool);
    stream.on('limit', () => this.fail(this.limits.tooLarge(name)));
    this.collecting.push(this.collect(name, stream, spool, filename, mimeType));
  }

  /** A known text field sent as a file part: its bytes as UTF-8 text, held to the field limit. */
  private async collectText(name: string, stream: AsyncIterable<Buffer>): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > this.limits.fieldBytes) this.fail(fieldTooLarge(name, this.limits.fieldBytes));
      if (!this.failure) chunks.push(chunk);
    }
    if (this.failure) return;
    const bytes = Buffer.concat(chunks, size);
    try {
      this.form.fields[name] = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      this.fail(invalidParameter(name, 'must be UTF-8 text (it was sent as a file part)'));
    }
  }

  private async collect(
    name: string,
    stream: AsyncIterable<Buffer>,
    spool: Spool,
    filename: string,
    mimeType: string,
  ): Promise<void> {
    for await (const chunk of stream) if (!this.failure) await spool.write(chunk);
    if (this.failure) return;
    const bytes = await spool.bytes();
    // busboy reports text/plain for a part that declared no type (the multipart default); the
    // official Python client declares none, so that is read as "no type given".
    const contentType = mimeType && mimeType !== 'text/plain' ? mimeType : undefined;
    this.form.files.push({ name, filename, bytes, ...(contentType && { contentType }) });
  }
}

/** How much of a refused body is still read (and dropped) before the connection is given up. */
const DISCARD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * After an early refusal, reads and drops what the client is still sending, in the background:
 * the client then finishes its request and reads our answer, and its connection stays usable.
 * Left unread, the body stalls the server's own drain and the next request on it fails.
 */
async function discardRest(reader: BodyReader): Promise<void> {
  try {
    for (let dropped = 0; dropped <= DISCARD_MAX_BYTES; ) {
      const chunk = await reader.read();
      if (!chunk) return;
      dropped += chunk.length;
    }
    reader.cancel();
  } catch {
    // the client went away: nothing left to drain
  }
}
