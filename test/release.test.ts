import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** One version, written everywhere it appears, and the changelog's section a release takes its notes from. */

const run = promisify(execFile);
const ROOT = new URL('..', import.meta.url).pathname;
const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');
const FILES = [
  'package.json',
  'package-lock.json',
  'python/pyproject.toml',
  'Dockerfile',
  'deploy/kubernetes/shards.yaml',
  'CHANGELOG.md',
];

/** Every place a release writes the version, as found in `root`. */
function versionsIn(root: string): string[] {
  const lock = JSON.parse(read(root, 'package-lock.json'));
  return [
    JSON.parse(read(root, 'package.json')).version,
    lock.version,
    lock.packages[''].version,
    /^version = "([^"]*)"$/m.exec(read(root, 'python/pyproject.toml'))?.[1],
    /^ARG VERSION=(.*)$/m.exec(read(root, 'Dockerfile'))?.[1],
    /image: ghcr\.io\/labelmock\/labelmock:(.*)$/m.exec(read(root, 'deploy/kubernetes/shards.yaml'))?.[1],
  ];
}

describe('releasing', () => {
  it('package.json, the lockfile, pyproject, the Dockerfile and the Kubernetes shards name one version', () => {
    const [version, ...others] = versionsIn(ROOT);
    expect(others).toEqual(others.map(() => version));
  });

  it('npm run release:version writes the version everywhere and moves Unreleased under it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'labelmock-release-'));
    mkdirSync(join(root, 'python'));
    mkdirSync(join(root, 'deploy/kubernetes'), { recursive: true });
    for (const file of FILES) cpSync(join(ROOT, file), join(root, file));
    const script = join(ROOT, 'scripts', 'release-version.mjs');
    await run(process.execPath, [script, '9.8.7', '--date', '2027-01-02', '--root', root]);
    expect(versionsIn(root)).toEqual(['9.8.7', '9.8.7', '9.8.7', '9.8.7', '9.8.7', '9.8.7']);
    const changelog = read(root, 'CHANGELOG.md');
    expect(changelog).toContain('## [Unreleased]\n\n## [9.8.7] - 2027-01-02\n\n### Added\n');
    expect(changelog).toContain('[Unreleased]: https://github.com/labelmock/labelmock/compare/v9.8.7...HEAD');
    const section = await run(process.execPath, [
      join(ROOT, 'scripts', 'changelog-section.mjs'),
      '9.8.7',
      join(root, 'CHANGELOG.md'),
    ]);
    expect(section.stdout).toMatch(/^### Added\n\n- The first release/);
    expect(section.stdout).not.toMatch(/## \[|\[Unreleased\]:/);
    // The same version again is refused: a section is never written twice.
    await expect(run(process.execPath, [script, '9.8.7', '--root', root])).rejects.toThrow(/already has a section/);
  });

  it('a version that is not SemVer is refused with the usage, exit 2', async () => {
    const refused = run(process.execPath, [join(ROOT, 'scripts', 'release-version.mjs'), 'v1.2']);
    await expect(refused).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: npm run release') });
  });
});
