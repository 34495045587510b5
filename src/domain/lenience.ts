import type { ZodError, ZodIssue, ZodType, ZodTypeDef } from 'zod';
import { formatPath } from '../errors/zod-messages.js';

/**
 * What a tenant's /v1 and /v2 routes do with a parameter no schema declares. The real service accepts
 * and ignores one (scale_lidar_io's `task_id: null`, P.808's batch `callback_url`): `lenient` does the
 * same and says so (the Labelmock-Warning header, the journal); `strict` answers the 400 naming it.
 */
export const UNKNOWN_PARAMS_POLICIES = ['lenient', 'strict'] as const;
export type UnknownParamsPolicy = (typeof UNKNOWN_PARAMS_POLICIES)[number];

/** The answer header naming what a lenient request ignored (labelmock's own, like Prism's `sl-violations`). */
export const WARNING_HEADER = 'Labelmock-Warning';

/** Names one request keeps of what it ignored (the count goes on): a body of 10,000 typos stays one short header. */
const MAX_NAMED = 20;
/** Rounds of removing unknown keys: a key inside one found only once its parent parses. */
const MAX_ROUNDS = 4;

/** How one request's input is read beyond its schemas, and what was ignored in reading it. */
export class Lenience {
  /** The ignored parameters as the 400 would name them (`"callback_url"`, `"params.foo"`), the first few. */
  readonly ignored: string[] = [];
  ignoredCount = 0;
  /**
   * Where each ignored key was in the value read (a body's, a query's): the self-check takes them out before it
   * holds the request to the document, which is as precise as the strict server. Every one, not the first few:
   * they are the request's own keys, bounded by its size.
   */
  readonly ignoredPaths: (string | number)[][] = [];

  /**
   * @param ignoreUnknown accept and ignore undeclared keys (the tenant's `unknown_params: lenient`).
   * @param formStrings the body came form-encoded: its scalars are text, read as the numbers and booleans the
   *   schema asks for (as the real service's form parser and models did).
   */
  constructor(
    readonly ignoreUnknown: boolean,
    public formStrings = false,
  ) {}

  note(name: string, path?: (string | number)[]): void {
    if (path) this.ignoredPaths.push(path);
    this.ignoredCount += 1;
    if (this.ignored.length < MAX_NAMED && !this.ignored.includes(name)) this.ignored.push(name);
  }
}

type Repair = { path: (string | number)[]; apply: (container: unknown) => unknown };

/**
 * Parses `value` with `schema`, repairing what the lenience allows and the first parse refused: undeclared keys
 * are removed (and noted), form text becomes the number or boolean asked for. Answers the parse, or the error of
 * the last attempt (which then names only what no repair could mend). The value given is never changed: a
 * repair copies the objects on its path.
 */
export function parseLeniently<T>(
  schema: ZodType<T, ZodTypeDef, unknown>,
  value: unknown,
  prefix: string,
  lenience: Lenience,
): { success: true; data: T } | { success: false; error: ZodError } {
  let current = value;
  let result = schema.safeParse(current);
  const noted: Noted[] = [];
  for (let round = 0; round < MAX_ROUNDS && !result.success; round++) {
    const repairs = result.error.issues.flatMap((issue) => repairsFor(issue, lenience, prefix, noted));
    if (repairs.length === 0) break;
    for (const repair of repairs) current = repairAt(current, repair.path, repair.apply);
    result = schema.safeParse(current);
  }
  if (result.success) for (const { name, path } of noted) lenience.note(name, path);
  return result;
}

type Noted = { name: string; path: (string | number)[] };

function repairsFor(issue: ZodIssue, lenience: Lenience, prefix: string, noted: Noted[]): Repair[] {
  if (issue.code === 'unrecognized_keys' && lenience.ignoreUnknown) {
    for (const key of issue.keys) {
      const path = [...issue.path, key];
      noted.push({ name: `"${formatPath(path, prefix)}"`, path });
    }
    const unknown = new Set(issue.keys);
    return [{ path: issue.path, apply: (object) => withoutKeys(object, unknown) }];
  }
  if (issue.code === 'invalid_type' && lenience.formStrings && issue.received === 'string') {
    const key = issue.path.at(-1);
    if (key === undefined) return [];
    const read = FORM_READERS[issue.expected];
    if (!read) return [];
    return [{ path: issue.path.slice(0, -1), apply: (container) => withValue(container, key, read) }];
  }
  return [];
}

/** Form text read as what the schema asked for; text that is no such value stays text (and fails as before). */
const FORM_READERS: Partial<Record<string, (text: string) => unknown>> = {
  boolean: (text) => (text === 'true' ? true : text === 'false' ? false : text),
  number: (text) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text),
  // `-d categories=a` once is text; twice (or `categories[]=a`) a list.
  array: (text) => [text],
};

function withoutKeys(object: unknown, keys: ReadonlySet<string>): unknown {
  if (!object || typeof object !== 'object' || Array.isArray(object)) return object;
  // fromEntries defines each key, so a `__proto__` key (kept inside metadata) stays a key.
  return Object.fromEntries(Object.entries(object).filter(([key]) => !keys.has(key)));
}

function withValue(container: unknown, key: string | number, read: (text: string) => unknown): unknown {
  if (!container || typeof container !== 'object') return container;
  const current = (container as Record<string | number, unknown>)[key];
  if (typeof current !== 'string') return container;
  const copy = shallowCopy(container);
  copy[key] = read(current);
  return copy;
}

/** `value` with the thing at `path` replaced by `apply(thing)`, the objects on the way copied (never changed). */
function repairAt(value: unknown, path: (string | number)[], apply: (inner: unknown) => unknown): unknown {
  if (path.length === 0) return apply(value);
  if (!value || typeof value !== 'object') return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const inner = (value as Record<string | number, unknown>)[head];
  if (inner === undefined) return value;
  const copy = shallowCopy(value);
  copy[head] = repairAt(inner, rest, apply);
  return copy;
}

const shallowCopy = (value: object): Record<string | number, unknown> =>
  (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;

/**
 * `value` without the keys at `paths`, as a lenient read left them out (copies on the way; a path that is not there
 * changes nothing): the self-check holds the body the server read to the document. The keys of one object go in
 * one copy of it: a body of thousands of ignored keys costs one pass, not one per key.
 */
export function withoutPaths(value: unknown, paths: readonly (readonly (string | number)[])[]): unknown {
  const byParent = new Map<string, { parent: (string | number)[]; keys: Set<string> }>();
  for (const path of paths) {
    const key = path.at(-1);
    if (typeof key !== 'string') continue;
    const parent = path.slice(0, -1);
    const id = JSON.stringify(parent);
    const group = byParent.get(id) ?? { parent, keys: new Set<string>() };
    group.keys.add(key);
    byParent.set(id, group);
  }
  let result = value;
  for (const { parent, keys } of byParent.values()) result = repairAt(result, parent, (o) => withoutKeys(o, keys));
  return result;
}
