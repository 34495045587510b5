import { isDeepStrictEqual } from 'node:util';
import type { ErrorBody } from './answers.js';
import { checksKind, noteUnchecked } from './run-scope.js';
import type { Kind } from './tags.js';
import type { Exchange, HttpResult } from './target.js';

/**
 * Small assertions whose messages say what was expected, what came back and, for HTTP results,
 * which request it was and what body it answered: a contract failure against a remote target has
 * to be understandable from one line of CLI output.
 */
export class ContractFailure extends Error {
  override name = 'ContractFailure';
  /** Set when the broken rule is of another kind than its contract (labelmock's wording in an interface contract). */
  kind?: Kind;
  constructor(
    message: string,
    /** The request and answer that showed the failure, when one did. */
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/** A setup step (creating the task a rule needs, say) failed: reported apart from rule failures. */
export class SetupFailure extends ContractFailure {
  override name = 'SetupFailure';
}

/** Thrown by `ctx.skip`: the runner reports the contract as skipped with the reason. */
export class SkipSignal extends Error {
  override name = 'SkipSignal';
}

/**
 * Runs a setup step: any failure in it becomes a SetupFailure naming the step, so a broken
 * fixture is not reported as the rule the contract is about.
 */
export async function setupStep<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof SetupFailure || !(err instanceof ContractFailure)) throw err;
    throw new SetupFailure(`setup (${what}) failed: ${err.message}`, err.exchange);
  }
}

const MAX_SHOWN = 600;

export function show(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}... (${text.length} chars)` : text;
}

export function fail(message: string, exchange?: Exchange): never {
  throw new ContractFailure(message, exchange);
}

/** `value`, or a contract failure naming what is missing (an element a list should hold, a regex group). */
export function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) fail(`${what} is missing`);
  return value;
}

export function expectTrue(condition: unknown, message: string): asserts condition {
  if (!condition) fail(message);
}

export function expectEqual<T>(actual: unknown, expected: T, what: string): asserts actual is T {
  if (!isDeepStrictEqual(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function expectNotEqual(actual: unknown, unexpected: unknown, what: string): void {
  if (isDeepStrictEqual(actual, unexpected)) fail(`${what}: expected anything but ${show(unexpected)}`);
}

export function expectOneOf<T>(actual: unknown, allowed: readonly T[], what: string): asserts actual is T {
  if (!allowed.some((value) => isDeepStrictEqual(actual, value)))
    fail(`${what}: expected one of ${show(allowed)}, got ${show(actual)}`);
}

export function expectMatch(actual: unknown, pattern: RegExp, what: string): asserts actual is string {
  if (typeof actual !== 'string' || !pattern.test(actual))
    fail(`${what}: expected a string matching ${pattern}, got ${show(actual)}`);
}

/** What each JSON type name of `expectType` narrows a value to. */
interface JsonTypes {
  string: string;
  number: number;
  boolean: boolean;
  object: Record<string, unknown>;
  array: unknown[];
}

export function expectType<Type extends keyof JsonTypes>(
  actual: unknown,
  type: Type,
  what: string,
): asserts actual is JsonTypes[Type] {
  const got = Array.isArray(actual) ? 'array' : actual === null ? 'null' : typeof actual;
  if (got !== type)
    fail(`${what}: expected ${type === 'array' || type === 'object' ? 'an' : 'a'} ${type}, got ${got} ${show(actual)}`);
}

/** `value` read as a JSON object, or a failure naming `what` (for a field the documents leave open). */
export function asObject(value: unknown, what: string): Record<string, unknown> {
  expectType(value, 'object', what);
  return value;
}

/** `value` read as a JSON array, or a failure naming `what`. */
export function asArray(value: unknown, what: string): unknown[] {
  expectType(value, 'array', what);
  return value;
}

/** Case-insensitive: contracts check that a message names a field, not its exact wording. */
export function expectMentions(text: unknown, needle: string, what: string): void {
  if (typeof text !== 'string' || !text.toLowerCase().includes(needle.toLowerCase())) {
    fail(`${what}: expected a message mentioning ${show(needle)}, got ${show(text)}`);
  }
}

export function expectHasKey<Key extends string>(
  object: unknown,
  key: Key,
  what: string,
): asserts object is Record<Key, unknown> {
  if (!object || typeof object !== 'object' || !Object.hasOwn(object, key))
    fail(`${what}: expected key "${key}" in ${show(object)}`);
}

/** Absent, not merely null or empty: the real service leaves unset optional keys out. */
export function expectNoKey(object: unknown, key: string, what: string): void {
  if (object && typeof object === 'object' && Object.hasOwn(object, key)) {
    fail(`${what}: expected no key "${key}", got ${key}=${show((object as Record<string, unknown>)[key])}`);
  }
}

export function expectStatus(res: HttpResult, status: number): void {
  if (res.status !== status)
    fail(
      `${res.request}: expected HTTP ${status}, got ${res.status}; body: ${show(res.body ?? res.text)}`,
      res.exchange,
    );
}

export function expectStatusIn(
  res: HttpResult,
  allowed: readonly number[] | ((status: number) => boolean),
  what: string,
): void {
  const ok = typeof allowed === 'function' ? allowed(res.status) : allowed.includes(res.status);
  if (!ok)
    fail(`${res.request}: expected ${what}, got HTTP ${res.status}; body: ${show(res.body ?? res.text)}`, res.exchange);
}

/**
 * A rule that is labelmock's choice inside a contract of another kind (that a 400 names the field,
 * say: the interface fixes the error body's shape, not its text). Checked when the run selects
 * `labelmock`; otherwise noted as not checked, so a server that words its errors otherwise passes.
 */
function labelmockChoice(rule: string, check: () => void): void {
  if (!checksKind('labelmock')) {
    noteUnchecked(rule);
    return;
  }
  try {
    check();
  } catch (err) {
    if (err instanceof ContractFailure) err.kind ??= 'labelmock';
    throw err;
  }
}

/**
 * Every error leaves as `{"status_code": N, "error": "message"}` with N equal to the HTTP status.
 * `mentions` lists words labelmock's message contains (e.g. the invalid field's name): a labelmock
 * choice, see `labelmockChoice`. A message the interface prescribes is checked with expectMentions.
 */
export function expectErrorBody(
  res: HttpResult,
  status: number,
  ...mentions: string[]
): asserts res is HttpResult<ErrorBody> {
  expectStatus(res, status);
  expectErrorShape(res);
  for (const needle of mentions)
    labelmockChoice(`the error message names ${needle}`, () =>
      expectMentions(res.body.error, needle, `${res.request} error message`),
    );
}

/**
 * An error whose message the interface prescribes: a unique_id conflict's 409 "points at the
 * conflicting task", so the message must hold that task's id whatever else it says.
 */
export function expectConflictNaming(res: HttpResult, taskId: string): void {
  expectErrorBody(res, 409);
  expectMentions(res.body.error, taskId, `${res.request} error message (the task holding the unique_id)`);
}

/** The error body shape alone, for contracts that accept a range of statuses. */
export function expectErrorShape(res: HttpResult): asserts res is HttpResult<ErrorBody> {
  const body: unknown = res.body;
  expectTrue(
    body && typeof body === 'object' && !Array.isArray(body),
    `${res.request}: expected a JSON error object, got ${show(res.text)}`,
  );
  if (!('status_code' in body) || !('error' in body))
    fail(`${res.request}: expected {"status_code", "error"}, got ${show(body)}`);
  expectEqual(body.status_code, res.status, `${res.request} body.status_code`);
  expectTrue(
    typeof body.error === 'string' && body.error.trim() !== '',
    `${res.request}: expected a non-empty string "error", got ${show(body)}`,
  );
}
