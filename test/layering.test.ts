/**
 * The layering ARCHITECTURE.md describes, read from the import statements of every file under src/:
 * every file is in a layer, and nothing below knows what is above.
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

/**
 * Every file's layer, lowest first; the first prefix that matches a file names its layer. A file may import
 * its own layer or a lower one; two layers of one rank (routes and control) may not import each other.
 */
const LAYERS: ReadonlyArray<{ name: string; rank: number; prefixes: string[] }> = [
  { name: 'runtime', rank: 0, prefixes: ['runtime/', 'version.ts', 'fixtures.ts'] },
  { name: 'errors', rank: 1, prefixes: ['errors/'] },
  { name: 'task types', rank: 4, prefixes: ['domain/tasks/types/', 'domain/tasks/registry.ts'] },
  { name: 'domain', rank: 2, prefixes: ['domain/'] },
  { name: 'synth', rank: 3, prefixes: ['synth/'] },
  { name: 'store', rank: 5, prefixes: ['store/'] },
  { name: 'config', rank: 6, prefixes: ['config/'] },
  { name: 'services', rank: 7, prefixes: ['services/'] },
  { name: 'persist', rank: 8, prefixes: ['persist/'] },
  { name: 'http', rank: 9, prefixes: ['http/'] },
  { name: 'openapi', rank: 10, prefixes: ['openapi/'] },
  { name: 'routes', rank: 11, prefixes: ['routes/'] },
  { name: 'control', rank: 11, prefixes: ['control/'] },
  { name: 'app', rank: 12, prefixes: ['app.ts'] },
  { name: 'tools', rank: 13, prefixes: ['tools/'] },
  {
    name: 'entry',
    rank: 14,
    prefixes: ['index.ts', 'cli.ts', 'zod-effects-fix.ts', 'zod-effects-probes.ts'],
  },
];

function layerOf(file: string) {
  const layer = LAYERS.find(({ prefixes }) => prefixes.some((prefix) => file.startsWith(prefix)));
  if (!layer) throw new Error(`${file} is in no layer: add its folder to LAYERS (and to ARCHITECTURE.md)`);
  return layer;
}

/** `from (layer) imports to (layer)`, for every import that reaches up or sideways. */
function upwardImports(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (to.rank > from.rank || (to.rank === from.rank && to.name !== from.name)) {
        out.push(`${file} (${from.name}) imports ${target} (${to.name})`);
      }
    }
  }
  return out.sort();
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

  it('every file of src/ is in a layer, and no import reaches up or sideways', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('the layer check reports a planted upward and sideways import', () => {
    const planted = new Map([
      ['store/tenant.ts', ['services/tasks.ts', 'domain/settings.ts']],
      ['routes/tasks.ts', ['control/wait.ts', 'routes/meta.ts']],
      ['domain/tasks/registry.ts', ['synth/image.ts']],
    ]);
    expect(upwardImports(planted)).toEqual([
      'routes/tasks.ts (routes) imports control/wait.ts (control)',
      'store/tenant.ts (store) imports services/tasks.ts (services)',
    ]);
    expect(() => layerOf('scratch/new.ts')).toThrow(/in no layer/);
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
