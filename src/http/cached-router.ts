import type { Result, Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import { Kept } from './kept.js';

/** Paths whose match is kept per method (bounded: kept.ts). */
const MAX_KEPT = 1024;
/** Longer paths are matched every time: no route's own path is that long. */
const MAX_KEPT_CHARS = 256;

/**
 * Hono's TrieRouter with each path's match kept. A match depends on the method and path alone, and
 * the paths a client sends repeat (a list, a create, a polled task), so the second time costs a
 * lookup instead of a walk over the wildcard middleware (docs/benchmarks.md). Hono reads a match and
 * never changes it, so one result serves all.
 */
export class CachedRouter<T> implements Router<T> {
  readonly name = 'CachedRouter';
  readonly #router = new TrieRouter<T>();
  /** By method; a method the HTTP parser accepts is one of a few dozen. */
  readonly #kept = new Map<string, Kept<Result<T>>>();

  add(method: string, path: string, handler: T): void {
    this.#kept.clear();
    this.#router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let kept = this.#kept.get(method);
    const found = kept?.get(path);
    if (found) return found;
    if (!kept) {
      kept = new Kept(MAX_KEPT, MAX_KEPT_CHARS);
      this.#kept.set(method, kept);
    }
    return kept.keep(path, this.#router.match(method, path));
  }
}
