import type { z } from 'zod';

/**
 * A path pattern as a matcher: a literal path, a route template (`/v1/task/{taskId}`: a parameter is
 * one segment) or a glob (`*` within one segment, `**` as a whole segment: any number of segments).
 * Fault rules and the request journal's `?path=` filter take one from a client.
 *
 * Why no regular expression: a backtracking regex built from `*a*a*a*a*b` takes exponential time on a
 * long path, and one request would block every tenant. Here a pattern is matched in one pass per
 * wildcard with `indexOf` (greedy leftmost matching, which is exact for wildcards without an upper
 * bound), so the cost stays near the path's length times the pattern's segments, whatever both are.
 */

/** One segment's pattern: literal chunks with a wildcard between each two (`{x}` is one or more characters). */
interface SegmentGlob {
  chunks: string[];
  /** The least characters the wildcard before chunks[i] takes (index 0 unused). */
  least: number[];
}

type SegmentMatcher = string | SegmentGlob;
const GLOBSTAR = Symbol('**');
type PatternSegment = SegmentMatcher | typeof GLOBSTAR;

/** Where a client gives a pattern: `**` inside a segment would read as `*`, so it is refused instead. */
export function refinePathPattern(pattern: string, ctx: z.RefinementCtx): void {
  if (pattern.split('/').some((segment) => segment !== '**' && segment.includes('**'))) {
    ctx.addIssue({ code: 'custom', message: 'may use ** only as a whole segment (/v1/**/cancel)' });
  }
}

export function pathMatcher(pattern: string): (path: string) => boolean {
  if (!/[*{]/.test(pattern)) return (path) => path === pattern;
  const segments: PatternSegment[] = pattern.split('/').map((s) => (s === '**' ? GLOBSTAR : segmentMatcher(s)));
  // Blocks of fixed-length runs between globstars: the first and last are anchored, the rest float.
  const blocks: SegmentMatcher[][] = [[]];
  for (const segment of segments) {
    if (segment === GLOBSTAR) blocks.push([]);
    else blocks[blocks.length - 1]?.push(segment);
  }
  return (path) => matchBlocks(blocks, path.split('/'));
}

function segmentMatcher(segment: string): SegmentMatcher {
  const tokens = segment.match(/\*+|\{[^}]*\}|[^*{]+|\{/g) ?? [];
  if (!tokens.some(isWildcard)) return segment;
  const glob: SegmentGlob = { chunks: [''], least: [0] };
  let inWildcard = false;
  for (const token of tokens) {
    if (isWildcard(token)) {
      if (!inWildcard) {
        glob.chunks.push('');
        glob.least.push(0);
      }
      inWildcard = true;
      // A route parameter is one character at least; a star may be empty.
      if (token.startsWith('{')) glob.least[glob.least.length - 1] = (glob.least.at(-1) ?? 0) + 1;
    } else {
      inWildcard = false;
      glob.chunks[glob.chunks.length - 1] += token;
    }
  }
  return glob;
}

const isWildcard = (token: string) => token.startsWith('*') || (token.startsWith('{') && token.endsWith('}'));

function matchSegment(matcher: SegmentMatcher, text: string): boolean {
  if (typeof matcher === 'string') return matcher === text;
  const { chunks, least } = matcher;
  const first = chunks[0] ?? '';
  const last = chunks[chunks.length - 1] ?? '';
  if (!text.startsWith(first)) return false;
  let at = first.length;
  for (let i = 1; i < chunks.length - 1; i += 1) {
    const chunk = chunks[i] ?? '';
    const found = text.indexOf(chunk, at + (least[i] ?? 0));
    if (found === -1) return false;
    at = found + chunk.length;
  }
  return text.length - last.length >= at + (least[chunks.length - 1] ?? 0) && text.endsWith(last);
}

function blockMatchesAt(block: SegmentMatcher[], segments: string[], start: number): boolean {
  for (let i = 0; i < block.length; i += 1) {
    const matcher = block[i];
    if (matcher === undefined || !matchSegment(matcher, segments[start + i] ?? '')) return false;
  }
  return true;
}

function matchBlocks(blocks: SegmentMatcher[][], segments: string[]): boolean {
  const head = blocks[0] ?? [];
  if (blocks.length === 1) return segments.length === head.length && blockMatchesAt(head, segments, 0);
  const tail = blocks[blocks.length - 1] ?? [];
  const end = segments.length - tail.length;
  if (end < head.length || !blockMatchesAt(head, segments, 0) || !blockMatchesAt(tail, segments, end)) return false;
  // Each floating block at its leftmost place leaves the most room for those after it.
  let at = head.length;
  for (let b = 1; b < blocks.length - 1; b += 1) {
    const block = blocks[b] ?? [];
    while (at + block.length <= end && !blockMatchesAt(block, segments, at)) at += 1;
    if (at + block.length > end) return false;
    at += block.length;
  }
  return true;
}

const PARAM = Symbol('{param}');

/**
 * Whether some path matches both a pattern and a route template (`/v1/task/{taskId}/cancel`): a fault
 * rule that overlaps no route would never fire, and is refused instead of kept silently. Segment by
 * segment, with `**` spanning any number of the template's segments; a template parameter is any one
 * non-empty segment, so any non-empty segment pattern can meet it.
 */
export function overlapsTemplate(pattern: string, template: string): boolean {
  const rule: PatternSegment[] = pattern.split('/').map((s) => (s === '**' ? GLOBSTAR : segmentMatcher(s)));
  const route = template.split('/').map((s) => (/^\{[^}]+\}$/.test(s) ? PARAM : s));
  const seen = new Map<string, boolean>();
  const from = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = seen.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const segment = rule[i];
    const part = route[j];
    if (segment === undefined) result = part === undefined;
    else if (segment === GLOBSTAR) result = from(i + 1, j) || (part !== undefined && from(i, j + 1));
    else if (part === undefined) result = false;
    else if (part === PARAM) result = segment !== '' && from(i + 1, j + 1);
    else result = matchSegment(segment, part) && from(i + 1, j + 1);
    seen.set(key, result);
    return result;
  };
  return from(0, 0);
}
