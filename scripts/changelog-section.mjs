// `node scripts/changelog-section.mjs X.Y.Z`: prints CHANGELOG.md's section for that version (without its
// heading), the text of the GitHub release the release workflow makes. Exit 1 when there is none.
import { readFileSync } from 'node:fs';

const [version, file = new URL('../CHANGELOG.md', import.meta.url).pathname] = process.argv.slice(2);
const text = readFileSync(file, 'utf8');
const start = text.indexOf(`## [${version}]`);
if (!version || start < 0) {
  console.error(`CHANGELOG.md has no section for ${version ?? '(no version given)'}`);
  process.exit(1);
}
const body = text.slice(text.indexOf('\n', start) + 1);
const end = body.search(/^## \[|^\[[^\]]+\]: /m);
process.stdout.write(`${(end < 0 ? body : body.slice(0, end)).trim()}\n`);
