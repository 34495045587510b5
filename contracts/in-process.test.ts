import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { ERROR_CATALOG, type ErrorKind } from '../src/errors/index.js';
import { NOT_REACHED_BY_CONTRACTS } from '../test/catalog-reach.js';
import { registeredContracts } from './kit/contract.js';
import { formatPretty, OTHER_KINDS_ONLY } from './kit/report.js';
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

/** Every status the app answered the suite with. */
const answered = new Set<number>();

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
  // app.request accepts full URLs and answers without a network. Each status is noted for the catalog check.
  fetch: async (input, init) => {
    const res = await app.request(input instanceof Request ? input : String(input), init);
    answered.add(res.status);
    return res;
  },
};

describe('contracts (in process)', () => {
  const definitions = registeredContracts();
  let ran = 0;
  for (const definition of definitions) {
    it(`${definition.name} [${definition.tags.join(',')}]`, async () => {
      ran += 1;
      const result = await runContract(definition, target);
      if (result.status === 'passed') return;
      // Said first, for scripts/mutants.ts: a mutant counts as caught by an interface contract only
      // when a rule of the interface broke, not labelmock's wording inside it.
      const own = result.failures.some((failure) => failure.kind === undefined);
      throw new Error(`${result.status}${own ? '' : ` (${OTHER_KINDS_ONLY})`}: ${formatPretty(result)}`);
    });
  }

  // Last, so it sees what every contract above was answered (vitest runs a file's tests in order).
  it('every error kind of the catalog was answered to some contract, but those catalog-reach.ts exempts', (ctx) => {
    // Only meaningful after the whole suite (not under a -t filter that picked a few contracts).
    if (ran < definitions.length) ctx.skip();
    const kinds = Object.keys(ERROR_CATALOG) as ErrorKind[];
    const seen = (kind: ErrorKind) => answered.has(ERROR_CATALOG[kind].status);
    expect(kinds.filter((kind) => !(kind in NOT_REACHED_BY_CONTRACTS) && !seen(kind))).toEqual([]);
    // An exempt kind a contract did reach should lose its exemption (or, for a 500, is a bug).
    expect(kinds.filter((kind) => kind in NOT_REACHED_BY_CONTRACTS && seen(kind))).toEqual([]);
  });
});
