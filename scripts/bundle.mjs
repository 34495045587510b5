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
  // No keepNames: it wraps every function and class, closures made per request included, in a call that
  // redefines its `name`, and the bin answered 0.64-0.83 of its own modules' rate (GET a task, a list page,
  // a creation; docs/benchmarks.md). Names matter nowhere: the error classes set theirs, and esbuild renames a
  // function only when two modules' top-level names collide. Not minified, so the output stays readable.
  legalComments: 'eof',
  logLevel: 'warning',
  // CommonJS packages inside (node-forge, ajv) call require() for Node's built-ins: an ES module has none.
  banner: {
    js:
      "import { createRequire as __labelmockRequire } from 'node:module';\n" +
      'const require = __labelmockRequire(import.meta.url);',
  },
});
