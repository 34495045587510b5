import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import { notFound } from '../errors/index.js';
import type { AppEnv } from '../http/env.js';
import { DOCS_CSP, docsPage } from './docs-page.js';

/**
 * Scalar's standalone bundle is one self-contained script (styles included, no chunks). A build
 * copies it into dist/docs-assets/ with its version (scripts/copy-docs-assets.mjs), so the installed
 * package needs none of Scalar's dependencies; run from src/ (tsx), it comes from node_modules.
 */
async function scalarBundle(): Promise<{ file: string; version: string }> {
  const built = new URL('../docs-assets/', import.meta.url);
  try {
    const { version } = JSON.parse(await readFile(new URL('scalar.json', built), 'utf8')) as { version: string };
    return { file: fileURLToPath(new URL('scalar.js', built)), version };
  } catch {
    // Not built: the development checkout's node_modules. The package does not export the bundle,
    // so resolve its entry and go from there.
    const dir = dirname(dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')));
    const { version } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { version: string };
    return { file: join(dir, 'dist/browser/standalone.js'), version };
  }
}

/** The only files GET /docs/assets/{file} serves: names, never paths, so nothing else is reachable. */
const ASSETS = new Set(['scalar.js']);

const YEAR_S = 365 * 24 * 60 * 60;

/**
 * GET /docs (also /docs/: the app drops trailing slashes) and its assets. Public, like the documents.
 * Nothing is read at createApp: the page and the 4 MB bundle are read on first request, then kept.
 */
export function docsRoutes(app: Hono<AppEnv>): void {
  let bundle: Promise<{ file: string; version: string }> | undefined;
  let page: Promise<string> | undefined;
  let script: Promise<Uint8Array<ArrayBuffer>> | undefined;
  // A failed read is not kept: the next request tries again.
  const once = <T>(promise: Promise<T>, forget: () => void) => {
    promise.catch(forget);
    return promise;
  };
  const getBundle = () => {
    bundle ??= once(scalarBundle(), () => (bundle = undefined));
    return bundle;
  };
  const getPage = () => {
    page ??= once(
      getBundle().then(({ version }) => docsPage(`/docs/assets/scalar.js?v=${encodeURIComponent(version)}`)),
      () => (page = undefined),
    );
    return page;
  };
  // Copied once into a plain Uint8Array: the body type Hono takes.
  const getScript = () => {
    script ??= once(
      getBundle().then(({ file }) => readFile(file).then((bytes) => new Uint8Array(bytes))),
      () => (script = undefined),
    );
    return script;
  };

  app.get('/docs', async (c) =>
    c.html(await getPage(), 200, { 'Cache-Control': 'no-cache', 'Content-Security-Policy': DOCS_CSP }),
  );
  app.get('/docs/assets/:file', async (c) => {
    const name = c.req.param('file');
    if (!ASSETS.has(name)) throw notFound('Docs asset', name);
    // The page asks for a versioned URL, so a cached copy is never stale.
    return c.body(await getScript(), 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': `public, max-age=${YEAR_S}, immutable`,
    });
  });
}
