import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bin a checkout's package.json names for `labelmock`, as an absolute path: what `npx labelmock` runs in
 * that build (the single-file bundle now, `dist/cli.js` before it). Benchmarks and stress runs start it, so
 * they measure what users run; the checkout must be built.
 */
export function binOf(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const bin = pkg.bin.labelmock;
  if (!bin) throw new Error(`${dir}/package.json names no labelmock bin`);
  return join(dir, bin);
}
