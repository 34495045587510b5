import type { CheckedOperation } from './operations.js';

interface Matcher {
  operation: CheckedOperation;
  pattern: RegExp;
  /** Literal segments outrank parameters, as in the router: `/v1/batches/status` before `/v1/batches/{name}`. */
  rank: number[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Finds the documented operation a request was routed to, by method and path. */
export function operationMatcher(operations: CheckedOperation[]) {
  const matchers: Matcher[] = operations.map((operation) => {
    const segments = operation.template.split('/').filter(Boolean);
    const pattern = segments.map((s) => (s.startsWith('{') ? '[^/]+' : escapeRegExp(s))).join('/');
    return {
      operation,
      pattern: new RegExp(`^/${pattern}$`),
      rank: segments.map((s) => (s.startsWith('{') ? 0 : 1)),
    };
  });
  matchers.sort((a, b) => compareRank(b.rank, a.rank));
  return (method: string, path: string): CheckedOperation | undefined =>
    matchers.find((m) => m.operation.method === method && m.pattern.test(path))?.operation;
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const diff = (a[i] ?? -1) - (b[i] ?? -1);
    if (diff !== 0) return diff;
  }
  return 0;
}
