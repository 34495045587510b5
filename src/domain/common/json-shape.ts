import { invalidParameter } from '../../errors/index.js';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from './input-limits.js';

/**
 * Checks the shape of a JSON text before JSON.parse sees it. JSON.parse accepts any nesting and
 * any size, but it is not free (a 5 MB body of tiny objects takes it half a second), and everything
 * after it recurses (zod, structuredClone, JSON.stringify): a body nested 10,000 levels overflows
 * the stack later, even after it was stored. So the raw text is scanned once, iteratively, and a
 * body deeper or larger than the limits is refused with a 400 naming the limit and the place.
 *
 * `__proto__` keys: JSON.parse makes them own properties, but zod (records, passthrough objects)
 * and plain assignment drop them or turn them into a prototype. Inside metadata they are kept
 * (metadata is stored as sent); anywhere else they are refused by name, never silently dropped.
 */

export interface JsonShapeOptions {
  maxDepth?: number;
  maxValues?: number;
  /** The name of the whole text in messages: "body", or a field carrying JSON in a string. */
  root?: string;
  /** The whole text is metadata (setMetadata bodies, an upload's metadata field): `__proto__` is kept. */
  metadata?: boolean;
}

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One open container: an object (its current key) or an array (its current index). */
interface Level {
  object: boolean;
  /** Arrays: the index of the current element. */
  index: number;
  /** Objects: where the current key's text starts and ends (quotes included). */
  keyStart: number;
  keyEnd: number;
  /** Objects: the next string is a key. */
  expectKey: boolean;
  /** This level or one above it is metadata. */
  inMetadata: boolean;
}

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/** Where the closing quote of the string opening at `start` is (or -1): escaped quotes are skipped. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let k = quote - 1; text.charCodeAt(k) === BACKSLASH; k -= 1) slashes += 1;
    if (slashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** A key's text as JSON.parse will read it; a malformed one is left for JSON.parse to report. */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end + 1);
  if (!raw.includes('\\')) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}

/** Whether the key between `start` and `end` reads as `name`; cheap for the usual unescaped key. */
function keyIs(text: string, start: number, end: number, name: string): boolean {
  if (start < 0) return false;
  const length = end - start - 1;
  if (length === name.length) return text.startsWith(name, start + 1);
  // Escapes (\u005f...) make a key longer than the name it reads as, at most 6 characters per character.
  if (length < name.length || length > name.length * 6) return false;
  return keyText(text, start, end) === name;
}

const MAX_SEGMENT_CHARS = 40;

/** The dotted path of the open levels, as the other messages write fields ("a.b[2].c"). */
function pathOf(text: string, stack: Level[], root: string): string {
  // A bare array body has no field name of its own: "body[3]", as errors/zod-messages.ts writes it.
  let out = root || (stack[0] && !stack[0].object ? 'body' : '');
  for (const level of stack) {
    if (!level.object) out += `[${level.index}]`;
    else if (level.keyStart >= 0) {
      const key = keyText(text, level.keyStart, level.keyEnd);
      const shown = key.length > MAX_SEGMENT_CHARS ? `${key.slice(0, MAX_SEGMENT_CHARS)}...` : key;
      out += out ? `.${shown}` : shown;
    }
  }
  return out || 'body';
}

/** One pass over a JSON text, keeping only what the limits need: the open containers and a count. */
class ShapeScanner {
  private readonly stack: Level[] = [];
  private values = 0;

  constructor(
    private readonly text: string,
    private readonly limits: { maxDepth: number; maxValues: number; root: string; metadata: boolean },
  ) {}

  scan(): void {
    const { text } = this;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      if (isSpace(code) || code === COLON) continue;
      const top = this.stack[this.stack.length - 1];
      if (code === OPEN_OBJECT || code === OPEN_ARRAY) this.open(code === OPEN_OBJECT, top);
      else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) this.stack.pop();
      else if (code === COMMA) {
        if (top?.object) top.expectKey = true;
        else if (top) top.index += 1;
      } else if (code === QUOTE) {
        const end = stringEnd(text, i);
        // An unterminated string: malformed, left to JSON.parse.
        if (end < 0) return;
        this.string(i, end, top);
        i = end;
      } else {
        // A number, true, false or null (or a malformed token, left to JSON.parse): one value.
        this.count();
        while (i + 1 < text.length && !isDelimiter(text.charCodeAt(i + 1))) i += 1;
      }
    }
  }

  private fail(rule: string): never {
    throw invalidParameter(pathOf(this.text, this.stack, this.limits.root), rule);
  }

  private count(): void {
    this.values += 1;
    const max = this.limits.maxValues;
    if (this.values > max)
      this.fail(
        `is past the limit of ${max} JSON values in one body (objects, arrays, strings, numbers, booleans and nulls)`,
      );
  }

  private open(object: boolean, top: Level | undefined): void {
    this.count();
    if (this.stack.length >= this.limits.maxDepth)
      this.fail(`is nested deeper than the limit of ${this.limits.maxDepth} levels`);
    const inMetadata =
      this.limits.metadata ||
      (top !== undefined && (top.inMetadata || (top.object && keyIs(this.text, top.keyStart, top.keyEnd, 'metadata'))));
    this.stack.push({ object, index: 0, keyStart: -1, keyEnd: -1, expectKey: object, inMetadata });
  }

  private string(start: number, end: number, top: Level | undefined): void {
    if (!top?.object || !top.expectKey) {
      this.count();
      return;
    }
    top.keyStart = start;
    top.keyEnd = end;
    top.expectKey = false;
    if (!top.inMetadata && keyIs(this.text, start, end, '__proto__'))
      this.fail('is not an allowed key: __proto__ is only kept inside metadata');
  }
}

/**
 * Throws the 400 of the first limit the text breaks; returns when it is within them. Malformed
 * JSON passes through untouched: JSON.parse reports it with its own, better message.
 */
export function checkJsonShape(text: string, options: JsonShapeOptions = {}): void {
  new ShapeScanner(text, {
    maxDepth: options.maxDepth ?? MAX_JSON_DEPTH,
    maxValues: options.maxValues ?? MAX_JSON_VALUES,
    root: options.root ?? '',
    metadata: options.metadata === true,
  }).scan();
}

const isDelimiter = (code: number) =>
  code === COMMA || code === CLOSE_ARRAY || code === CLOSE_OBJECT || code === COLON || isSpace(code);

/** JSON.parse behind the shape check: the only way bodies (and JSON inside strings) are read. */
export function parseGuardedJson(text: string, options: JsonShapeOptions = {}): unknown {
  checkJsonShape(text, options);
  return JSON.parse(text);
}
