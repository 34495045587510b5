import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { PACKAGE_ROOT } from './runtime/package-root.js';

const PackageSchema = z.object({ version: z.string() });
let cached: string | undefined;

/** The package's version, read from package.json once, on first use. */
export function packageVersion(): string {
  cached ??= PackageSchema.parse(JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8'))).version;
  return cached;
}
