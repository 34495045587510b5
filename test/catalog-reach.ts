import type { ErrorKind } from '../src/errors/index.js';

/**
 * Error kinds the contract suite cannot reach against a correct server, why, and the test in test/
 * that reaches each instead. Read by contracts/in-process.test.ts (every other kind must be answered
 * by some contract) and by test/error-catalog.test.ts (the named tests must exist).
 */
export const NOT_REACHED_BY_CONTRACTS: Partial<Record<ErrorKind, { reason: string; file: string; test: string }>> = {
  internal: {
    reason: 'a 500 is a bug of the mock: no request of a correct client may cause one',
    file: 'test/error-catalog.test.ts',
    test: 'GET /boom whose handler throws a plain Error answers 500 with the error body',
  },
  service_unavailable: {
    reason: 'needs a server started with --max-tenants, and a contract cannot choose how the target was started',
    file: 'test/tenant-memory.test.ts',
    test: 'GET /v1/tasks by a new key past --max-tenants is a 503 naming the limit; held keys keep working',
  },
};
