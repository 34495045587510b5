import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/network-guard.ts'],
    testTimeout: 20_000,
    // Every app a test makes (and every server it starts) checks its answers against the OpenAPI
    // documents: an answer the document does not describe becomes a 500 naming the mismatch.
    env: { LABELMOCK_SELF_CHECK: 'strict' },
  },
});
