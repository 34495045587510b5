'use strict';
/**
 * Test harness only (mocha's `--require` in node-sdk-own-tests.test.ts): the SDK's own test file sets a 4 s
 * timeout per test (`this.timeout(4000)`), written for one client on an idle machine. On a CI machine
 * shared with other runs that is a wall-clock bound, and fails on load alone; here a suite's timeout is
 * never below LABELMOCK_MOCHA_TIMEOUT_FLOOR_MS. The SDK's tests and their assertions are unchanged.
 */
const Suite = require('mocha/lib/suite');

const floor = Number(process.env.LABELMOCK_MOCHA_TIMEOUT_FLOOR_MS || 60000);
const original = Suite.prototype.timeout;
Suite.prototype.timeout = function timeout(...args) {
  const [ms] = args;
  if (typeof ms === 'number' && ms > 0 && ms < floor) return original.call(this, floor);
  return original.apply(this, args);
};
