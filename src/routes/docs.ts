import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Hono } from 'hono';
import { notFound } from '../errors/index.js';
import type { AppEnv } from '../http/env.js';
import { PACKAGE_ROOT } from '../runtime/package-root.js';
import { DOCS_CSP, docsPage } from './docs-page.js';

/**
 * Scalar's standalone bundle is one self-contained script (styles included, no chunks), vendored
 * gzipped in vendor/scalar/. A build writes it into dist/docs-assets/ with its version
 * (scripts/copy-docs-assets.mjs); run from src/ (tsx), it is unzipped from vendor/ on first request.
 */
async function scalarBundle(): Promise<{ version: string; read: () => Promise<Uint8Array> }> {
  const built = new URL('dist/docs-assets/', PACKAGE_ROOT);
  const vendored = new URL('vendor/scalar/', PACKAGE_ROOT);
  const versionIn = async (dir: URL) =>
    (JSON.parse(await readFile(new URL('scalar.json', dir), 'utf8')) as { version: string }).version;
  try {
    return { version: await versionIn(built), read: () => readFile(new URL('scalar.js', built)) };
  } catch {
    // Unzipped off the event loop (zlib's thread pool): other requests go on meanwhile.
    const read = async () => promisify(gunzip)(await readFile(new URL('standalone.js.gz', vendored)));
    return { version: await versionIn(vendored), read };
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
  let bundle: ReturnType<typeof scalarBundle> | undefined;
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
      getBundle().then(({ read }) => read().then((bytes) => new Uint8Array(bytes))),
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
