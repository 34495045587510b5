'use strict';
/**
 * Points the official Node SDK (npm `scaleapi` 2.x) at labelmock without changing the SDK.
 *
 * Why: the SDK hard-codes `https://api.scaleapi.com/v1/` and has no endpoint option. Every call
 * it makes goes through `request.get(opts, cb)` or `request.post(opts, cb)` with an absolute
 * `opts.url`, so rewriting that prefix on the shared `request` module is enough.
 *
 * Use: `LABELMOCK_URL=http://127.0.0.1:3000 node --require ./point-scaleapi-node.cjs app.js`
 * (or mocha `--require`), or `require()` it anywhere before the first SDK call.
 */
const REAL = 'https://api.scaleapi.com';
// Read per call, so a test can start the mock on a free port after loading this file.
const target = () => (process.env.LABELMOCK_URL || 'http://127.0.0.1:3000').replace(/\/+$/, '');
// Resolve `request` from the SDK's own folder: if npm nested a copy there, that copy is patched.
const request = require(
  require.resolve('request', { paths: [require('node:path').dirname(require.resolve('scaleapi'))] }),
);

for (const method of ['get', 'post']) {
  const original = request[method];
  if (original.labelmockPatched) continue; // loaded twice (--require and require()): patch once
  const patched = function (opts, cb) {
    if (opts && typeof opts.url === 'string' && opts.url.startsWith(REAL)) {
      opts = Object.assign({}, opts, { url: target() + opts.url.slice(REAL.length) });
    }
    return original.call(this, opts, cb);
  };
  patched.labelmockPatched = true;
  request[method] = patched;
}
