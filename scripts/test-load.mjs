#!/usr/bin/env node
/**
 * The test suite on a loaded machine: two CPU burners run beside vitest for the whole run, as when other
 * CI jobs share the cores. Tests must not depend on wall-clock speed; this is how to check they do not.
 *
 *   npm run test:load                          the whole suite once, two burners
 *   npm run test:load -- --repeat 3            three runs in a row; stops at the first that fails
 *   npm run test:load -- --burners 4 test/faults.test.ts    more burners, some files
 */
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  options: { repeat: { type: 'string', default: '1' }, burners: { type: 'string', default: '2' } },
  allowPositionals: true,
});
const repeat = Number(values.repeat);
const burners = Array.from({ length: Number(values.burners) }, () =>
  spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
);
const stopBurners = () => {
  for (const burner of burners) burner.kill('SIGKILL');
};
process.on('exit', stopBurners);

let code = 0;
for (let run = 1; run <= repeat && code === 0; run += 1) {
  console.log(`test:load: run ${run} of ${repeat}, ${burners.length} CPU burners beside it`);
  const started = Date.now();
  code = await new Promise((resolve) => {
    const vitest = spawn('npx', ['vitest', 'run', ...positionals], { stdio: 'inherit' });
    vitest.on('exit', (exitCode) => resolve(exitCode ?? 1));
  });
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`test:load: run ${run} ${code === 0 ? 'passed' : 'failed'} in ${seconds} s`);
}
stopBurners();
process.exit(code);
