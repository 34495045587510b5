import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workflowProblems } from '../scripts/workflow-rules.mjs';

/** The release and CI workflows keep their rules (npm run lint checks the files; these show each rule bites). */

const ci = readFileSync(new URL('../.github/workflows/ci.yml', import.meta.url), 'utf8');
const release = readFileSync(new URL('../.github/workflows/release.yml', import.meta.url), 'utf8');

describe('.github/workflows', () => {
  it('ci.yml and release.yml keep every rule', () => {
    expect(workflowProblems(ci)).toEqual([]);
    expect(workflowProblems(release)).toEqual([]);
  });

  it('an action used by tag, not by commit, is refused', () => {
    const tagged = ci.replace(/actions\/checkout@[0-9a-f]{40}/, 'actions/checkout@v4');
    expect(workflowProblems(tagged)).toEqual([
      'jobs.test.steps[0].uses: "actions/checkout@v4" is not pinned by a commit SHA',
    ]);
  });

  it('a job without permissions, or a workflow granting some at the top, is refused', () => {
    const open = release
      .replace('permissions: {}\n', 'permissions: write-all\n')
      .replace(/( {2}github-release:\n(?: {4}.*\n)*?) {4}permissions:\n {6}contents: write\n/, '$1');
    expect(workflowProblems(open)).toEqual([
      'permissions: the workflow grants none at the top (permissions: {}); each job names its own',
      'jobs.github-release: names no permissions',
    ]);
  });

  it('a step the workflow schema does not know is refused', () => {
    const unknownKey = ci.replace('      - run: npm test\n', '      - run: npm test\n        bogus: 1\n');
    expect(workflowProblems(unknownKey)).toEqual([expect.stringMatching(/^schema: \/jobs\/test /)]);
  });

  it('releases only after the tests, and publishes npm with provenance, PyPI and a two-platform image', () => {
    for (const job of ['npm', 'pypi', 'image']) {
      expect(release).toMatch(new RegExp(`\\n {2}${job}:\\n {4}needs: \\[tests, check-version\\]`));
    }
    expect(release).toContain('npm publish --provenance --access public');
    expect(release).toContain('platforms: linux/amd64,linux/arm64');
    expect(release).toContain('uses: ./.github/workflows/ci.yml');
  });
});
