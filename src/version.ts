import { readFileSync } from 'node:fs';
import { z } from 'zod';

const PackageSchema = z.object({ version: z.string() });
let cached: string | undefined;

/**
 * The package's version, read from package.json once, on first use. Resolved from this module's own
 * URL: src/ and dist/ sit at the same depth, so the same path works under tsx and from the build.
 */
export function packageVersion(): string {
  cached ??= PackageSchema.parse(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))).version;
  return cached;
}
