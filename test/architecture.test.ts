import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md is the map a contributor reads first: a file it names that was moved or deleted sends them
 * nowhere. Paths under src/ are written without `src/` in its tables (`services/tasks.ts`); either form resolves.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const TOP = ['src', 'contracts', 'test', 'scripts', 'inspector', 'deploy', 'docs', 'python'];

/** Every file path the text names: a path with a folder and one of the repository's extensions. */
function namedPaths(text: string): string[] {
  const found = text.matchAll(/(?<![\w./-])((?:[\w.-]+\/)+[\w.-]+\.(?:ts|mjs|md|cfg|conf|js|yaml))(?![\w/])/g);
  return [...new Set([...found].map((match) => match[1] ?? ''))].filter((path) => !path.startsWith('http'));
}

const resolves = (path: string) =>
  existsSync(join(ROOT, path)) ||
  (!TOP.some((top) => path.startsWith(`${top}/`)) && existsSync(join(ROOT, 'src', path)));

describe('ARCHITECTURE.md', () => {
  it('names only files that exist', () => {
    const paths = namedPaths(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(paths.length).toBeGreaterThan(150);
    expect(paths.filter((path) => !resolves(path))).toEqual([]);
  });

  it('reads a path in a sentence, a table cell and after `src/`, and finds a missing one', () => {
    const text = 'one `services/tasks.ts` (`x`), | `src/app.ts` |, docs/nowhere.md and services/gone.ts.';
    expect(namedPaths(text)).toEqual(['services/tasks.ts', 'src/app.ts', 'docs/nowhere.md', 'services/gone.ts']);
    expect(namedPaths(text).filter((path) => !resolves(path))).toEqual(['docs/nowhere.md', 'services/gone.ts']);
  });
});
