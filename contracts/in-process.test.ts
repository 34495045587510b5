import { randomBytes } from 'node:crypto';
import { afterAll, describe, it } from 'vitest';
import { createApp } from '../src/app.js';
import { registeredContracts } from './kit/contract.js';
import { formatPretty } from './kit/report.js';
import { runContract } from './kit/runner.js';
import type { Target } from './kit/target.js';
import './suite/index.js';

/**
 * The contract suite against an in-process app: the only file here that imports from src/.
 * Everything is available in process (control plane, second tenant, live key, disposable keys), so a
 * skip is a failure, and every contract runs whatever its tags.
 */
const app = createApp();
afterAll(() => app.dispose());

const suffix = randomBytes(6).toString('hex');
const apiKey = `test_contracts_${suffix}`;
const otherApiKey = `test_contracts_other_${suffix}`;
const target: Target = {
  baseUrl: 'http://labelmock.test',
  apiKey,
  otherApiKey,
  liveApiKey: `live_contracts_${suffix}`,
  // Fresh tenants of an in-process app: resetting, importing and moving clocks is fine.
  disposableKeys: [apiKey, otherApiKey],
  // app.request accepts full URLs and answers without a network.
  fetch: async (input, init) => app.request(input instanceof Request ? input : String(input), init),
};

describe('contracts (in process)', () => {
  for (const definition of registeredContracts()) {
    it(`${definition.name} [${definition.tags.join(',')}]`, async () => {
      const result = await runContract(definition, target);
      if (result.status !== 'passed') throw new Error(`${result.status}: ${formatPretty(result)}`);
    });
  }
});
