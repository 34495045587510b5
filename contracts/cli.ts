#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { registeredContracts } from './kit/contract.js';
import { type ContractResult, runContracts } from './kit/runner.js';
import type { Target } from './kit/target.js';
import './suite/index.js';

/**
 * `npm run contracts -- --base-url URL --api-key KEY [--other-api-key KEY2] [--grep TEXT]`
 * Runs the contract suite over HTTP against any implementation. Exit 0: all passed or skipped;
 * 1: a contract failed; 2: bad arguments.
 */

const USAGE = 'usage: npm run contracts -- --base-url URL --api-key KEY [--other-api-key KEY2] [--grep TEXT]';

function parse(argv: string[]): { target: Target; grep?: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'other-api-key': { type: 'string' },
      grep: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const baseUrl = values['base-url'];
  const apiKey = values['api-key'];
  if (!baseUrl || !apiKey) throw new Error('--base-url and --api-key are required');
  if (!/^https?:\/\/[^/]+/.test(baseUrl) || !URL.canParse(baseUrl))
    throw new Error(`--base-url must be an http(s) URL (got "${baseUrl}")`);
  if (values['other-api-key'] === apiKey)
    throw new Error('--other-api-key must differ from --api-key (it stands for another account)');
  return {
    target: { baseUrl, apiKey, otherApiKey: values['other-api-key'], fetch: globalThis.fetch },
    grep: values.grep,
  };
}

function line(result: ContractResult): string {
  switch (result.status) {
    case 'passed':
      return `PASS  ${result.name} (${result.ms} ms)`;
    case 'failed':
      return `FAIL  ${result.name}: ${result.message}`;
    case 'skipped':
      return `SKIP  ${result.name}: ${result.message}`;
  }
}

async function main(): Promise<void> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(process.argv.slice(2));
  } catch (err) {
    console.error(`contracts: ${(err as Error).message}\n${USAGE}`);
    process.exit(2);
  }
  const contracts = registeredContracts().filter((c) => !options.grep || c.name.includes(options.grep));
  const results = await runContracts(options.target, { contracts, onResult: (result) => console.log(line(result)) });
  const count = (status: ContractResult['status']) => results.filter((r) => r.status === status).length;
  console.log(`${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped`);
  process.exit(count('failed') > 0 ? 1 : 0);
}

void main();
