// The code generators of generated-clients/ (its own package.json and lockfile, never the package's
// dependencies): installed from that lockfile on first use, for test/generated-clients.test.ts and for
// scripts/contract-types.ts.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const GENERATORS_HOME = fileURLToPath(new URL('../generated-clients/', import.meta.url));

/** The path of a generator's executable, installing the folder's lockfile first when it is not yet. */
export function generatorBin(name: string): string {
  if (!existsSync(join(GENERATORS_HOME, 'node_modules', '.package-lock.json'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: GENERATORS_HOME,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  return join(GENERATORS_HOME, 'node_modules', '.bin', name);
}
