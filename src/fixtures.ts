import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from './runtime/package-root.js';

const FIXTURES = new URL('fixtures/', PACKAGE_ROOT);
const cache = new Map<string, unknown>();

/** A sample from fixtures/ (read once): the OpenAPI examples and the tests use the same files. */
export function fixture<T = unknown>(name: string): T {
  if (!cache.has(name)) cache.set(name, JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')));
  return structuredClone(cache.get(name)) as T;
}

/** A fixture when its file exists: a type without samples yet still gets its documentation. */
export function optionalFixture<T = unknown>(name: string): T | undefined {
  try {
    return fixture<T>(name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
