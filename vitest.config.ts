import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/network-guard.ts'],
    // Generous: a bound for a hung test, never a measure of speed. A loaded CI machine (npm run test:load)
    // starts servers and browsers several times slower than an idle one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every app a test makes (and every server it starts) checks its answers against the OpenAPI
    // documents: an answer the document does not describe becomes a 500 naming the mismatch.
    env: { LABELMOCK_SELF_CHECK: 'strict' },
  },
});
