import { type ZodLazy, type ZodTypeAny, z } from 'zod';

/**
 * `z.lazy` for recursive schemas, with the inner schema built once. Zod 3 calls a lazy schema's
 * getter on every parse, so `z.lazy(() => z.array(X))` built a new array schema for each nested
 * value of each request (a text collection's field tree made dozens per creation).
 */
export function lazySchema<T extends ZodTypeAny>(build: () => T): ZodLazy<T> {
  let built: T | undefined;
  return z.lazy(() => {
    built ??= build();
    return built;
  });
}
