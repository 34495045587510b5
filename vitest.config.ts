import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'contracts/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['test/network-guard.ts'],
    testTimeout: 20_000,
  },
});
