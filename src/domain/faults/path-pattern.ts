/**
 * A fault rule's path as a matcher: a literal path, a route template (`/v1/task/{taskId}`: a parameter is
 * one segment) or a glob (`*` within one segment, `**` across segments). Compiled once, when the rule is made.
 */
export function pathMatcher(pattern: string): (path: string) => boolean {
  if (!/[*{]/.test(pattern)) return (path) => path === pattern;
  let source = '';
  for (const token of pattern.match(/\*\*|\*|\{[^}/]*\}|[^*{]+|\{/g) ?? []) {
    if (token === '**') source += '.*';
    else if (token === '*') source += '[^/]*';
    else if (/^\{[^}/]*\}$/.test(token)) source += '[^/]+';
    else source += escapeRegExp(token);
  }
  const regexp = new RegExp(`^${source}$`);
  return (path) => regexp.test(path);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
