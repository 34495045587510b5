// Part of `npm run build`: writes Scalar's standalone bundle (the docs page's one script) into
// dist/docs-assets/, with the version it came from. The bundle is vendored, gzipped, in
// vendor/scalar/ (npm run docs-assets:update refreshes it), so building needs none of Scalar's ~270
// dependencies: an install from a git URL or a checkout builds without them.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

const vendored = new URL('../vendor/scalar/', import.meta.url);
const out = new URL('../dist/docs-assets/', import.meta.url);
mkdirSync(out, { recursive: true });
writeFileSync(new URL('scalar.js', out), gunzipSync(readFileSync(new URL('standalone.js.gz', vendored))));
const { version } = JSON.parse(readFileSync(new URL('scalar.json', vendored), 'utf8'));
writeFileSync(new URL('scalar.json', out), `${JSON.stringify({ version })}\n`);
