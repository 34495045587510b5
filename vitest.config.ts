import { defineConfig } from 'vitest/config';

/**
 * The test files that leave the process or the machine's quiet: child processes and real sockets (servers,
 * the CLI, the official clients' own suites, Python), fresh installs (npm pack, npm ci of the code generators),
 * browsers (chromium), and in-process stress (megabyte bodies, hundreds of thousands of keys, fuzzing every
 * operation). Everything else is `fast`: units and apps made in process (`npm run test:fast`). A new test file
 * is fast unless it is listed here.
 */
const PROCESSES = [
  'test/byte-pool.test.ts',
  'test/cli.test.ts',
  'test/client-abort.test.ts',
  'test/compat/node-sdk*.test.ts',
  'test/compat/python-client-recovery.test.ts',
  'test/contracts-kit.test.ts',
  'test/data-dir-crash.test.ts',
  'test/drift-cli.test.ts',
  'test/faults-server.test.ts',
  'test/json-body-socket.test.ts',
  'test/metrics.test.ts',
  'test/persist-disk.test.ts',
  'test/readme-examples.test.ts',
  'test/record-cli.test.ts',
  'test/request-journal.test.ts',
  'test/retry-example.test.ts',
  'test/server*.test.ts',
  'test/tls.test.ts',
  'test/upload-backpressure.test.ts',
];
const INSTALLS = [
  'test/generated-clients.test.ts',
  'test/install-paths.test.ts',
  'test/package.test.ts',
  'test/python-plugin.test.ts',
];
const BROWSERS = [
  'test/docs-browser.test.ts',
  'test/inspector-browser.test.ts',
  'test/inspector-drawing-browser.test.ts',
];
const STRESS = ['test/fuzz.test.ts', 'test/hostile-input.test.ts'];
/**
 * Files that change the whole process (the bin's zod fix): kept out of the fast project's shared
 * module graph, where every later file would see the change (GET /_mock/health's fast_validation among them).
 */
const PATCHERS = ['test/zod-effects-fix.test.ts'];

/** Shards behind HAProxy and nginx: `npm run test:cluster` (vitest.cluster.config.ts), never `npm test`. */
const CLUSTER = ['test/cluster/**'];

const ALL = ['test/**/*.test.ts', 'contracts/**/*.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    setupFiles: ['test/network-guard.ts'],
    // Generous: a bound for a hung test, never a measure of speed. A loaded CI machine (npm run test:load)
    // starts servers and browsers several times slower than an idle one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Every app a test makes (and every server it starts) checks its answers against the OpenAPI
    // documents: an answer the document does not describe becomes a 500 naming the mismatch.
    env: { LABELMOCK_SELF_CHECK: 'strict' },
    projects: [
      {
        extends: true,
        // One module graph per worker for the fast files: the self-check's validators (http/self-check/) and
        // the documents they compile are built once per worker, not once per file (1.1-1.8 s each).
        test: {
          name: 'fast',
          include: ALL,
          exclude: [...PROCESSES, ...INSTALLS, ...BROWSERS, ...STRESS, ...PATCHERS, ...CLUSTER],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'stress', include: [...STRESS, ...PATCHERS] } },
      { extends: true, test: { name: 'processes', include: PROCESSES, globalSetup: ['test/bundle-setup.ts'] } },
      { extends: true, test: { name: 'installs', include: INSTALLS } },
      { extends: true, test: { name: 'browsers', include: BROWSERS } },
    ],
  },
});
