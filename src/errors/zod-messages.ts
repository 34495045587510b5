import type { ZodError, ZodIssue } from 'zod';

/**
 * Turns zod issues into the reasons of the real service's message style (the `invalidParameters`
 * template in src/errors/ adds the service's lead):
 * `"geometries.polygon.max_vertices" must be at least min_vertices (4)`.
 * Every reason names the field (as a dotted path) and the rule it broke.
 */
export function describeZodIssues(error: ZodError, root = ''): string {
  const reasons = error.issues.slice(0, 5).map((issue) => describeIssue(issue, root));
  const more = error.issues.length > 5 ? `; and ${error.issues.length - 5} more` : '';
  return `${[...new Set(reasons)].join('; ')}${more}`;
}

export function formatPath(path: (string | number)[], root = ''): string {
  // A bare array body has no field name of its own: call it "body", as in "body[0]".
  let out = root || (typeof path[0] === 'number' ? 'body' : '');
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${part}` : part;
  }
  return out || 'body';
}

const MAX_NAMED_KEYS = 5;
const MAX_KEY_CHARS = 100;
const shorten = (key: string) => (key.length > MAX_KEY_CHARS ? `${key.slice(0, MAX_KEY_CHARS)}...` : key);

function describeIssue(issue: ZodIssue, root: string): string {
  const field = `"${formatPath(issue.path, root)}"`;
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return `${field} is required`;
      // A schema's own wording (e.g. "must be true or false") beats the generic one.
      if (!/^Expected /.test(issue.message) && issue.message !== 'Required') return `${field} ${issue.message}`;
      return `${field} must be ${article(issue.expected)} (got ${issue.received})`;
    case 'unrecognized_keys': {
      // A hostile body may carry thousands of unknown (and long) keys: name a few, count the rest.
      const named = issue.keys
        .slice(0, MAX_NAMED_KEYS)
        .map((key) => `"${formatPath([...issue.path, shorten(key)], root)}" is not an allowed parameter`);
      const more = issue.keys.length - MAX_NAMED_KEYS;
      return named.join('; ') + (more > 0 ? `; and ${more} more unknown key(s)` : '');
    }
    case 'invalid_enum_value':
      return (
        `${field} must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')} ` +
        `(got ${JSON.stringify(issue.received)})`
      );
    case 'invalid_literal':
      return `${field} must be ${JSON.stringify(issue.expected)}`;
    case 'too_small':
      return `${field} ${boundPhrase(issue.type, 'at least', issue.minimum, issue.inclusive)}`;
    case 'too_big':
      return `${field} ${boundPhrase(issue.type, 'at most', issue.maximum, issue.inclusive)}`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.multipleOf}`;
    case 'invalid_string':
      // A schema's own wording (a regex's rule) beats the generic one.
      if (issue.message && !issue.message.startsWith('Invalid')) return `${field} ${issue.message}`;
      return `${field} must be a valid ${String(issue.validation)}`;
    case 'invalid_date':
      return `${field} must be a valid date`;
    case 'invalid_union':
      return describeUnion(issue, root, field);
    case 'invalid_union_discriminator':
      return `${field} must be one of ${issue.options.map((o) => JSON.stringify(o)).join(', ')}`;
    default:
      return `${field} ${issue.message}`;
  }
}

/** A union failed: report the branch that got furthest, or the union's own message when none did. */
function describeUnion(issue: Extract<ZodIssue, { code: 'invalid_union' }>, root: string, field: string): string {
  let best: ZodIssue | undefined;
  for (const branch of issue.unionErrors) {
    for (const inner of branch.issues) {
      if (inner.path.length > issue.path.length && (!best || inner.path.length > best.path.length)) best = inner;
    }
  }
  if (best) return describeIssue(best, root);
  return `${field} ${issue.message === 'Invalid input' ? 'has an invalid value' : issue.message}`;
}

function boundPhrase(type: string, word: string, bound: number | bigint, inclusive: boolean): string {
  const n = Number(bound);
  switch (type) {
    case 'string':
      return `must have ${word} ${inclusive ? n : word === 'at least' ? n + 1 : n - 1} character(s)`;
    case 'array':
      return `must have ${word} ${inclusive ? n : word === 'at least' ? n + 1 : n - 1} item(s)`;
    default:
      return inclusive ? `must be ${word} ${n}` : `must be ${word === 'at least' ? 'greater' : 'less'} than ${n}`;
  }
}

function article(expected: string): string {
  if (expected === 'array' || expected === 'object' || expected === 'integer') return `an ${expected}`;
  if (expected.includes('|') || expected.startsWith("'")) return `one of ${expected}`;
  return `a ${expected}`;
}
