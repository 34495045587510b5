import fc from 'fast-check';

/**
 * Hostile values and the raw JSON texts that carry them. Some of them JSON.stringify cannot write
 * (10,000 levels, -0, 1e400, repeated keys): those are raw fragments, spliced into the text.
 */

class Raw {
  constructor(readonly text: string) {}
}

const deep = (levels: number, open: string, close: string, inner = '1') =>
  open.repeat(levels) + inner + close.repeat(levels);

/** Own `__proto__` keys: JSON.parse makes them, an object literal would set a prototype instead. */
const protoObject = (inner: string) =>
  JSON.parse(
    `{"__proto__":${inner},"constructor":{"prototype":{"polluted":true}},` +
      `"prototype":1,"toString":"x","hasOwnProperty":0,"valueOf":{}}`,
  );

const oddStrings = [
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '1e999',
  '0x10',
  ' 1 ',
  '٣',
  'true',
  'null',
  '\u0000',
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\u202e\u200b',
  '💥',
  'e\u0301',
  '%',
  '%ZZ',
  '../..',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'x'.repeat(10_000),
];

const oddNumbers: unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  5e-324,
  2 ** 53 + 1,
  1e21,
  0.1 + 0.2,
  new Raw('-0'),
  new Raw('1e400'),
  new Raw('-1E-400'),
  new Raw('123456789012345678901234567890'),
];

const huge: (() => unknown)[] = [
  () => 'x'.repeat(1_000_000),
  () => Array(12_000).fill(0),
  () => Array(9_000).fill('x'),
  () => Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, i])),
  () => Array.from({ length: 2000 }, (_, i) => ({ choice: `c${i}`, subchoices: ['a', 'b'] })),
  () => new Raw('{"a":1,"a":2,"__proto__":1,"__proto__":{"x":1}}'),
];

/** Deep values: what overflowed the stack of zod, structuredClone, JSON.stringify and the label walkers. */
const deepValues: (() => Raw)[] = [
  () => new Raw(deep(10_000, '{"a":', '}')),
  () => new Raw(deep(10_000, '[', ']')),
  () => new Raw(deep(3_000, '{"choice":"c","subchoices":[', ']}', '"leaf"')),
  () => new Raw(`[${deep(3_000, '{"choice":"c","subchoices":[', ']}', '"leaf"')}]`),
  () => new Raw(`[${deep(3_000, '{"name":"n","children":[', ']}', '{"name":"leaf"}')}]`),
  () => new Raw(`[${deep(3_000, '{"label":"l","subchoices":[', ']}', '{"label":"leaf"}')}]`),
  () => new Raw(deep(65, '{"a":', '}')),
];

/** One hostile value: a wrong type, an odd string or number, a prototype-keyed object, or something huge or deep. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<unknown>(null, true, false, 0, [], {}, [null], { '': null }, 'x', [[]], [{}]),
  },
  { weight: 3, arbitrary: fc.constantFrom(...oddStrings) },
  { weight: 2, arbitrary: fc.constantFrom(...oddNumbers) },
  { weight: 2, arbitrary: fc.constantFrom('1', '{}', '[]', '"s"').map(protoObject) },
  { weight: 2, arbitrary: fc.constantFrom(...huge).map((make) => make()) },
  { weight: 4, arbitrary: fc.constantFrom(...deepValues).map((make) => make()) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

/** Replaces the value at a path picked by `steps` (each an index into the keys or items met) with `value`. */
function mutate(root: unknown, steps: number[], value: unknown): unknown {
  if (steps.length === 0 || root === null || typeof root !== 'object') return value;
  const copy: any = Array.isArray(root) ? [...root] : { ...(root as object) };
  const keys = Object.keys(copy);
  if (keys.length === 0) return Array.isArray(copy) ? [value] : { field: value };
  const [step = 0, ...rest] = steps; // steps is not empty (checked above)
  // biome-ignore lint/style/noNonNullAssertion: keys is not empty (checked above), so the index is in range
  const key = keys[step % keys.length]!;
  copy[key] = mutate(copy[key], rest, value);
  return copy;
}

/** A body as text: JSON, with raw fragments spliced where they stand. */
export function toText(value: unknown): string {
  const fragments: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof Raw) {
      fragments.push(v.text);
      return `__RAW_FRAGMENT_${fragments.length - 1}__`;
    }
    return v;
  });
  if (text === undefined) return '';
  // Only the placeholders written above match, so each names a fragment (else it is left as it is).
  return text.replace(/"__RAW_FRAGMENT_(\d+)__"/g, (match, n) => fragments[Number(n)] ?? match);
}

/** Fields that take free-form JSON somewhere in the interface: where hostile values get furthest. */
const FREE_FORM = [
  'metadata',
  'params',
  'response',
  'attributes',
  'hypothesis',
  'labels',
  'objects_to_annotate',
  'choices',
  'ontology',
  'fields',
  'defs',
];

const withField = (value: unknown, key: string, hostile: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ...value, [key]: hostile }
    : { [key]: hostile };

/** A valid-ish body, or one hostile somewhere (whole, a field, a nested field), as text. */
export const bodyText = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 2, arbitrary: valid.map(toText) },
    { weight: 2, arbitrary: hostileValue.map(toText) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, fc.array(fc.nat(), { maxLength: 4 }), hostileValue)
        .map(([v, steps, h]) => toText(mutate(v, steps, h))),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...FREE_FORM), hostileValue)
        .map(([v, key, h]) => toText(withField(v, key, h))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('{', '[1,]', '{"a":1,}', 'nul', '\u0000', '"\ud800"', '{"a":"\\ud800"}', ' ', '1 2'),
    },
  );

/** Odd values for a query parameter or a path segment (already URL-encoded where that matters). */
export const oddParam: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    'NaN',
    '-0',
    '1e308',
    '-1',
    '0',
    '101',
    '9'.repeat(400),
    'true',
    'TRUE',
    'maybe',
    '%',
    '%ZZ',
    '%ED%A0%80',
    '%00',
    '%2F',
    '..',
    '__proto__',
    'constructor',
    'toString',
    encodeURIComponent('💥'),
    encodeURIComponent('{"__proto__":{"a":1}}'),
    encodeURIComponent('{"a":'.repeat(200)),
    '2026-13-45',
    '2026-01-01T25:00:00Z',
    'x'.repeat(5000),
    'a,b,,c',
    encodeURIComponent(' '),
  ),
  fc.string({ maxLength: 10 }).map(encodeURIComponent),
);
