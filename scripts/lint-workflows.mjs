// `npm run lint` part: every workflow in .github/workflows keeps the rules of scripts/workflow-rules.mjs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workflowProblems } from './workflow-rules.mjs';

const dir = new URL('../.github/workflows/', import.meta.url).pathname;
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
let failed = 0;
for (const name of files) {
  for (const problem of workflowProblems(readFileSync(join(dir, name), 'utf8'))) {
    console.error(`.github/workflows/${name}: ${problem}`);
    failed += 1;
  }
}
if (files.length === 0) {
  console.error('.github/workflows holds no workflow');
  failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
