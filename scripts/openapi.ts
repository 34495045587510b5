/**
 * Writes or checks openapi.yaml. The document is generated from the zod schemas through the same
 * app that serves it, so the committed file, the served file and the code cannot disagree unnoticed.
 *   tsx scripts/openapi.ts --write   regenerate openapi.yaml
 *   tsx scripts/openapi.ts --check   exit 1 when openapi.yaml differs from the code
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createApp } from '../src/app.js';

const FILE = new URL('../openapi.yaml', import.meta.url);

async function main(): Promise<void> {
  const app = createApp();
  const res = await app.request('/openapi.yaml');
  const generated = await res.text();
  if (res.status !== 200) throw new Error(`cannot build openapi.yaml: ${generated}`);
  if (process.argv.includes('--write')) {
    writeFileSync(FILE, generated);
    console.log(`openapi.yaml written (${generated.length} bytes)`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(FILE, 'utf8');
  } catch {
    // reported below as a drift
  }
  if (committed !== generated) {
    console.error('openapi.yaml is out of date with the code: run `npm run openapi:write` and commit the result.');
    process.exit(1);
  }
  console.log('openapi.yaml matches the code');
}

void main();
