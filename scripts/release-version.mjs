// `npm run release:version -- X.Y.Z [--date YYYY-MM-DD] [--root DIR]`: writes the version everywhere it is
// written (package.json, package-lock.json, python/pyproject.toml, the Dockerfile's VERSION default) and moves
// CHANGELOG.md's Unreleased section under it, with a fresh empty Unreleased above. Tag the commit vX.Y.Z and
// .github/workflows/release.yml publishes npm, PyPI and the image from it (docs/releasing.md).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const REPOSITORY = 'https://github.com/labelmock/labelmock';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { date: { type: 'string' }, root: { type: 'string' } },
});
const [version] = positionals;
if (!version || !SEMVER.test(version)) {
  console.error('usage: npm run release:version -- X.Y.Z [--date YYYY-MM-DD]  (a SemVer version)');
  process.exit(2);
}
const root = values.root ?? new URL('..', import.meta.url).pathname;
const date = values.date ?? new Date().toISOString().slice(0, 10);

/** Rewrites one file; fails when the pattern is not there (a place that moved must not be skipped silently). */
function rewrite(file, pattern, replacement) {
  const path = join(root, file);
  const text = readFileSync(path, 'utf8');
  if (!pattern.test(text)) throw new Error(`${file}: found no ${pattern} to write the version into`);
  writeFileSync(path, text.replace(pattern, replacement));
}

rewrite('package.json', /^( {2}"version": )"[^"]*"/m, `$1"${version}"`);
// The lockfile names the root package twice: at its top and as packages[""].
rewrite('package-lock.json', /^( {2}"version": )"[^"]*"/m, `$1"${version}"`);
const LOCK_ROOT = /("packages": \{\n {4}"": \{\n {6}"name": "labelmock",\n {6}"version": )"[^"]*"/;
rewrite('package-lock.json', LOCK_ROOT, `$1"${version}"`);
rewrite('python/pyproject.toml', /^version = "[^"]*"$/m, `version = "${version}"`);
rewrite('Dockerfile', /^ARG VERSION=.*$/m, `ARG VERSION=${version}`);
rewrite('deploy/kubernetes/shards.yaml', /^( +image: ghcr\.io\/labelmock\/labelmock:).*$/m, `$1${version}`);

const changelog = 'CHANGELOG.md';
const text = readFileSync(join(root, changelog), 'utf8');
if (text.includes(`## [${version}]`)) throw new Error(`${changelog} already has a section for ${version}`);
if (!text.includes('## [Unreleased]')) throw new Error(`${changelog} has no Unreleased section to release`);
const previous = /^## \[(\d[^\]]*)\]/m.exec(text)?.[1];
const links = [
  `[Unreleased]: ${REPOSITORY}/compare/v${version}...HEAD`,
  previous
    ? `[${version}]: ${REPOSITORY}/compare/v${previous}...v${version}`
    : `[${version}]: ${REPOSITORY}/releases/tag/v${version}`,
].join('\n');
const released = text
  .replace('## [Unreleased]', `## [Unreleased]\n\n## [${version}] - ${date}`)
  .replace(/^\[Unreleased\]: .*$/m, links);
writeFileSync(join(root, changelog), released);
console.log(`release:version: ${version} written; commit, then tag v${version}`);
