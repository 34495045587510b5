/**
 * The layering ARCHITECTURE.md describes, read from the import statements of every file under src/:
 * HTTP edge → validation → service → store, and nothing below knows what is above.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Static imports and re-exports (`import type` too: a type still ties a layer to another) and import(). */
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file (relative to src/, e.g. `services/files.ts`) with the src/ files it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = match[1] ?? match[2] ?? '';
      if (!spec.startsWith('.')) continue;
      targets.push(relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

const graph = importGraph();

/** `from imports to`, for every import of a file under `layer` that reaches into one of `forbidden`. */
function violations(layer: string, forbidden: string[]): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    if (!file.startsWith(`${layer}/`)) continue;
    for (const target of targets) {
      if (forbidden.some((dir) => target.startsWith(`${dir}/`))) out.push(`${file} imports ${target}`);
    }
  }
  return out;
}

/** Every cycle of the import graph, each once, as `a.ts -> b.ts -> a.ts` from its smallest file. */
function importCycles(graph: Map<string, string[]>): string[] {
  const found = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.add(describeCycle(stack.slice(stack.indexOf(next))));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found].sort();
}

function describeCycle(files: string[]): string {
  const first = files.indexOf([...files].sort()[0] ?? '');
  const rotated = [...files.slice(first), ...files.slice(0, first)];
  return [...rotated, rotated[0]].join(' -> ');
}

describe('layering of src/', () => {
  it('reads the imports of every file (the parser finds the app wiring)', () => {
    expect(graph.get('app.ts')).toEqual(expect.arrayContaining(['errors/index.ts', 'services/context.ts']));
    // A multi-line import, and a re-export.
    expect(graph.get('http/idempotency.ts')).toContain('errors/index.ts');
    expect(graph.get('errors/index.ts')).toContain('errors/templates.ts');
    expect(graph.size).toBeGreaterThan(100);
  });

  it('services import nothing from control/, http/ or routes/', () => {
    expect(violations('services', ['control', 'http', 'routes'])).toEqual([]);
  });

  it('domain imports nothing from services/, store/, http/, routes/ or control/', () => {
    expect(violations('domain', ['services', 'store', 'http', 'routes', 'control'])).toEqual([]);
  });

  it('store imports nothing from services/, http/, routes/ or control/', () => {
    expect(violations('store', ['services', 'http', 'routes', 'control'])).toEqual([]);
  });

  it('the cycle search reports a planted cycle and ignores a diamond', () => {
    const planted = new Map([
      ['a.ts', ['b.ts', 'c.ts']],
      ['b.ts', ['d.ts']],
      ['c.ts', ['d.ts']],
      ['d.ts', ['e.ts']],
      ['e.ts', ['c.ts']],
    ]);
    expect(importCycles(planted)).toEqual(['c.ts -> d.ts -> e.ts -> c.ts']);
  });

  it('src/ has no import cycles beyond the known ones', () => {
    expect(importCycles(graph)).toEqual([]);
  });
});
