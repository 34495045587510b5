#!/usr/bin/env node
/**
 * Refreshes the vendored Scalar bundle (vendor/scalar/) that GET /docs serves: fetches the package
 * from the npm registry with `npm pack`, takes its standalone browser bundle, gzips it.
 *
 *   npm run docs-assets:update -- 1.72.1     that version of @scalar/api-reference
 *
 * Then run the docs tests (test/docs.test.ts, test/docs-browser.test.ts) before committing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const PACKAGE = '@scalar/api-reference';
const FILE = 'dist/browser/standalone.js';
const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: npm run docs-assets:update -- <version of @scalar/api-reference, e.g. 1.72.1>');
  process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), 'scalar-'));
const tarball = execFileSync('npm', ['pack', `${PACKAGE}@${version}`, '--silent'], { cwd: scratch, encoding: 'utf8' });
execFileSync('tar', ['-xzf', tarball.trim(), `package/${FILE}`, 'package/package.json'], { cwd: scratch });
const meta = JSON.parse(readFileSync(join(scratch, 'package/package.json'), 'utf8'));
const vendored = new URL('../vendor/scalar/', import.meta.url);
const bundle = readFileSync(join(scratch, 'package', FILE));
writeFileSync(new URL('standalone.js.gz', vendored), gzipSync(bundle, { level: 9 }));
const record = { package: PACKAGE, version: meta.version, license: meta.license, file: FILE };
writeFileSync(new URL('scalar.json', vendored), `${JSON.stringify(record, null, 2)}\n`);
console.log(`vendor/scalar: ${PACKAGE} ${meta.version} (${meta.license})`);
