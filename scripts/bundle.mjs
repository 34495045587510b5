// Writes dist/labelmock.mjs: the server (src/cli.ts) and everything it imports in one ES module, so it needs no
// node_modules beside it. The bin starts from it (loading one file is cheaper than some 300 modules), and the
// Python wheel carries it (python/). Files read at run time (package.json, fixtures/, inspector/,
// dist/docs-assets/) are found from the package root, as from dist/cli.js.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('../src/cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/labelmock.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Keeps the names the code prints or compares (error class names in messages), and the output readable.
  keepNames: true,
  legalComments: 'eof',
  logLevel: 'warning',
  // CommonJS packages inside (node-forge, ajv) call require() for Node's built-ins: an ES module has none.
  banner: {
    js:
      "import { createRequire as __labelmockRequire } from 'node:module';\n" +
      'const require = __labelmockRequire(import.meta.url);',
  },
});
