/**
 * Writes, checks or lints the OpenAPI documents. They are generated from the zod schemas of the
 * same routes the app serves, so the committed file, the served file and the code cannot disagree
 * unnoticed.
 *   tsx scripts/openapi.ts --write   regenerate openapi.yaml, openapi-v2.yaml and openapi-control.yaml
 *   tsx scripts/openapi.ts --check   exit 1 when either differs from the code
 *   tsx scripts/openapi.ts --lint    Redocly lint (redocly.yaml) of the three
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createApp } from '../src/app.js';
import { controlRoutes } from '../src/control/routes.js';
import { apiDocument, controlDocument, toYaml, v2Document } from '../src/openapi/documents.js';
import { EXAMPLES_FIXTURE } from '../src/openapi/examples.js';
import { apiRoutes } from '../src/routes/index.js';
import { v2Routes } from '../src/routes/v2/index.js';
import { recordExamples } from './examples/scenario.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FILE = fileURLToPath(new URL('../openapi.yaml', import.meta.url));
const V2_FILE = fileURLToPath(new URL('../openapi-v2.yaml', import.meta.url));
const CONTROL_FILE = fileURLToPath(new URL('../openapi-control.yaml', import.meta.url));

/** Lints the documents as redocly.yaml says (its `apis`); the exit code is Redocly's. */
function lint(): number {
  const bin = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url));
  // No telemetry and no update check: the lint runs offline, in CI too.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const run = spawnSync(bin, ['lint', '--format=stylish'], { stdio: 'inherit', env, cwd: ROOT });
  return run.status ?? 1;
}

const EXAMPLES = fileURLToPath(new URL(`../fixtures/${EXAMPLES_FIXTURE}`, import.meta.url));

/** The recorded examples, as fixtures/examples/operations.json holds them. */
const examplesText = async () => `${JSON.stringify(await recordExamples(), null, 2)}\n`;

async function main(): Promise<void> {
  if (process.argv.includes('--lint')) process.exit(lint());
  const write = process.argv.includes('--write');
  const examples = await examplesText();
  // Written first: the document reads them.
  if (write) writeFileSync(EXAMPLES, examples);
  const app = createApp();
  const documents = [
    { file: FILE, name: 'openapi.yaml', text: toYaml(apiDocument(apiRoutes(app.services))) },
    { file: V2_FILE, name: 'openapi-v2.yaml', text: toYaml(v2Document(v2Routes(app.services))) },
    { file: CONTROL_FILE, name: 'openapi-control.yaml', text: toYaml(controlDocument(controlRoutes(app.services))) },
  ];
  app.dispose();
  if (write) {
    for (const { file, name, text } of documents) {
      writeFileSync(file, text);
      console.log(`${name} written (${text.length} bytes)`);
    }
    console.log(`fixtures/${EXAMPLES_FIXTURE} written`);
    return;
  }
  if (readFileSync(EXAMPLES, 'utf8') !== examples) {
    console.error(`fixtures/${EXAMPLES_FIXTURE} is out of date with the code: run \`npm run openapi:write\`.`);
    process.exit(1);
  }
  for (const { file, name, text } of documents) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      // reported below as a drift
    }
    if (committed !== text) {
      console.error(`${name} is out of date with the code: run \`npm run openapi:write\` and commit the result.`);
      process.exit(1);
    }
  }
  console.log('openapi.yaml, openapi-v2.yaml and openapi-control.yaml match the code');
}

void main();
