#!/usr/bin/env node
import { runCli } from './kit/cli-main.js';
import './suite/index.js';

/**
 * `labelmock-contracts --base-url URL --api-key KEY [...]` (or `npm run contracts -- ...`): the
 * contract suite over HTTP against any implementation. `--help` lists the flags.
 * Exit 0: all passed or skipped; 1: a contract failed; 2: bad arguments or an unreachable target.
 */
runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  // Exit once stdout has drained: keep-alive sockets to the target would hold the process open.
  (code) => process.stdout.write('', () => process.exit(code)),
  (err) => {
    process.stderr.write(`labelmock-contracts: ${(err as Error).stack ?? String(err)}\n`);
    process.stdout.write('', () => process.exit(2));
  },
);
