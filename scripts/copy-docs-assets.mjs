// Part of `npm run build`: copies Scalar's standalone bundle (the docs page's one script) into
// dist/docs-assets/, with the version it came from. The package then serves /docs from its own
// files and needs none of Scalar's ~270 dependencies at run time (they are only a dev install).
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const scalarDir = dirname(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')));
const out = new URL('../dist/docs-assets/', import.meta.url);
mkdirSync(out, { recursive: true });
copyFileSync(join(scalarDir, 'dist/browser/standalone.js'), new URL('scalar.js', out));
const { version } = JSON.parse(readFileSync(join(scalarDir, 'package.json'), 'utf8'));
writeFileSync(new URL('scalar.json', out), `${JSON.stringify({ version })}\n`);
