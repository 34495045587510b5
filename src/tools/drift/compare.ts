import { isRecord } from '../../domain/tasks/is-record.js';
import { type IdMap, isIdKey } from './ids.js';

/**
 * What differs between a recorded answer and labelmock's to the same request: a field one has and the other
 * lacks, a type, or a value where labelmock is deterministic. Volatile values compare by type: ids (through
 * the id map: the same record must keep the same id), times, and URLs (their query holds signatures).
 */

export type DifferenceKind = 'status' | 'missing' | 'extra' | 'type' | 'value';

export interface Difference {
  kind: DifferenceKind;
  /** Where in the answer: `docs[0].status` (empty: the answer itself). */
  path: string;
  recorded?: string;
  mock?: string;
}

/** At most this many differences of one answer are listed (the first ones, in document order). */
const MAX_DIFFERENCES = 50;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const URL_TEXT = /^https?:\/\//i;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string' && ISO_TIME.test(value)) return 'time';
  return typeof value;
}

const shown = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/**
 * What a task says of its callbacks' outcome: up to the receiver, not labelmock. When drift sends replayed
 * callbacks to its own sink (callback-sink.ts), the receiver is not the recorded one, so these compare by type.
 */
export const CALLBACK_OUTCOME_KEYS: ReadonlySet<string> = new Set(['callback_succeeded', 'callback_completed']);

export function compareAnswers(
  recorded: unknown,
  mock: unknown,
  ids: IdMap,
  byTypeOnly: ReadonlySet<string> = new Set(),
): Difference[] {
  const found: Difference[] = [];
  const add = (difference: Difference) => {
    if (found.length < MAX_DIFFERENCES) found.push(difference);
  };
  const walk = (a: unknown, b: unknown, path: string, key: string) => {
    const [typeA, typeB] = [typeOf(a), typeOf(b)];
    if (typeA !== typeB) {
      add({ kind: 'type', path, recorded: typeA, mock: typeB });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length)
        add({ kind: 'value', path: `${path}.length`, recorded: `${a.length}`, mock: `${b.length}` });
      for (let i = 0; i < Math.min(a.length, b.length); i += 1) walk(a[i], b[i], `${path}[${i}]`, key);
      return;
    }
    if (isRecord(a) && isRecord(b)) {
      for (const name of Object.keys(a)) {
        if (name in b) walk(a[name], b[name], join(path, name), name);
        else add({ kind: 'missing', path: join(path, name), recorded: shown(a[name]) });
      }
      for (const name of Object.keys(b))
        if (!(name in a)) add({ kind: 'extra', path: join(path, name), mock: shown(b[name]) });
      return;
    }
    if (typeA === 'time' || a === b || byTypeOnly.has(key)) return;
    if (typeof a === 'string' && typeof b === 'string') {
      // A value drift chose itself (a callback URL on its sink) stands for the recorded one.
      if (ids.mockOf(a) === b) return;
      if (isIdKey(key)) {
        const expected = ids.mockOf(a);
        if (expected === undefined || expected === b) return;
      }
      if (URL_TEXT.test(a) && URL_TEXT.test(b) && a.split('?')[0] === b.split('?')[0]) return;
    }
    add({ kind: 'value', path, recorded: shown(a), mock: shown(b) });
  };
  walk(recorded, mock, '', '');
  return found;
}

/** A difference's place without list positions, so `docs[0].status` and `docs[7].status` are one drift. */
export const signatureOf = (operation: string, difference: Difference) =>
  `${operation} ${difference.kind} ${difference.path.replace(/\[\d+\]/g, '[]') || '(answer)'}`;
