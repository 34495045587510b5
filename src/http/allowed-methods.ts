import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * The methods an app's routes answer on a path, for the 405 of a request no route took (with HEAD
 * wherever GET is, as Hono answers HEAD with the GET route). Called from the not-found handler, so
 * only an unmatched request pays for it, where Hono's methodNotAllowed middleware is one more async
 * step on every request. Built on first use, once every route is mounted; same answers as that
 * middleware's (its path-to-methods trie, matched the same way).
 */
export function allowedMethods<E extends object>(app: Hono<E>): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  const build = () => {
    const byPath = new Map<string, Set<string>>();
    for (const route of app.routes) {
      if (route.method === 'ALL' || route.method === 'HEAD') continue;
      const methods = byPath.get(route.path) ?? new Set();
      methods.add(route.method);
      if (route.method === 'GET') methods.add('HEAD');
      byPath.set(route.path, methods);
    }
    const built = new TrieRouter<string[]>();
    for (const [path, methods] of byPath) built.add('ALL', path, [...methods]);
    return built;
  };
  return (path) => {
    router ??= build();
    const allowed = new Set<string>();
    for (const [methods] of router.match('ALL', path)[0]) for (const method of methods) allowed.add(method);
    return [...allowed];
  };
}
