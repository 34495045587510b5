import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: labelmock as a fleet runs it, three shards of the bin behind HAProxy and nginx from the
 * distribution's packages (test/cluster/). Apart from `npm test`, which needs neither router; `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/cluster/**/*.test.ts'],
    setupFiles: ['test/network-guard.ts'],
    globalSetup: ['test/bundle-setup.ts'],
    // A bound for a hung test, never a measure of speed: the contract kit runs whole through each router.
    testTimeout: 300_000,
    hookTimeout: 120_000,
    env: { LABELMOCK_SELF_CHECK: 'strict' },
    // One cluster at a time: three shards and two routers already share the machine's cores.
    fileParallelism: false,
  },
});
