import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths whose match is kept; past it the cache starts over, so a client's variety of paths stays bounded. */
const MAX_KEPT = 1024;
/** Longer paths are matched every time: each kept one costs its length, and no route's own path is that long. */
const MAX_KEPT_CHARS = 256;

/**
 * Hono's TrieRouter with each path's match kept. A match depends on the method and path alone, and
 * the app's middleware sits on wildcards (`*`, `/v1/*`, `/_mock/*`), so every request's match walks
 * and sorts seven or eight handlers: about 0.7 µs and 3.5 KB of garbage, the most any one step of a
 * small answer allocates. The paths a client sends repeat (a list, a create, a polled task), so the
 * second time costs a lookup. Hono reads a match and never changes it, so one result serves all.
 * (Hono's RegExpRouter, which precompiles, refuses this route set: `/v1/task/{taskId}` next to
 * `/v1/task/imageannotation`.)
 */
export class CachedRouter<T> implements Router<T> {
  readonly name = 'CachedRouter';
  readonly #router = new TrieRouter<T>();
  readonly #kept = new Map<string, Map<string, Result<T>>>();
  #size = 0;

  add(method: string, path: string, handler: T): void {
    this.#clear();
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.#kept.get(method);
    const found = byPath?.get(path);
    if (found) return found;
    const result = this.#router.match(method, path);
    if (path.length > MAX_KEPT_CHARS) return result;
    if (this.#size >= MAX_KEPT) {
      this.#clear();
      byPath = undefined;
    }
    if (!byPath) {
      byPath = new Map();
      this.#kept.set(method, byPath);
    }
    byPath.set(path, result);
    this.#size += 1;
    return result;
  }

  #clear(): void {
    this.#kept.clear();
    this.#size = 0;
  }
}
