import { execFileSync } from 'node:child_process';

/**
 * Global setup of the processes project: builds the single-file bundle (dist/labelmock.mjs, about half a second)
 * from the sources as they are, so the bin's tests run what `npx labelmock` runs, never a stale build.
 */
export default function setup(): void {
  execFileSync(process.execPath, [new URL('../scripts/bundle.mjs', import.meta.url).pathname], { stdio: 'inherit' });
}
