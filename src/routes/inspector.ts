import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Hono } from 'hono';
import { notFound } from '../errors/index.js';
import type { AppEnv } from '../http/env.js';
import { PACKAGE_ROOT } from '../runtime/package-root.js';
import { INSPECTOR_CSP, inspectorPage } from './inspector-page.js';

/** The inspector's client files: plain ES modules and one style sheet in inspector/ at the package root. */
const FOLDER = new URL('inspector/', PACKAGE_ROOT);
const TYPES: Record<string, string> = {
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const YEAR_S = 365 * 24 * 60 * 60;

interface Assets {
  /** A hash of every file: part of the asset URLs, so a cached copy is never stale. */
  version: string;
  files: Map<string, { type: string; bytes: Uint8Array<ArrayBuffer> }>;
}

async function loadAssets(): Promise<Assets> {
  const files: Assets['files'] = new Map();
  const hash = createHash('sha256');
  for (const name of (await readdir(FOLDER)).sort()) {
    const type = TYPES[name.slice(name.lastIndexOf('.'))];
    if (type === undefined) continue;
    const bytes = new Uint8Array(await readFile(new URL(name, FOLDER)));
    hash.update(name).update(bytes);
    files.set(name, { type, bytes });
  }
  return { version: hash.digest('hex').slice(0, 12), files };
}

/**
 * GET /_mock/ui (also /_mock/ui/: the app drops trailing slashes) and its assets. Public, like /docs: it
 * is mounted before the auth middleware; the JSON routes the page calls need the key. Files are read on
 * first request, then kept; a failed read is not kept.
 */
export function inspectorRoutes(app: Hono<AppEnv>): void {
  let assets: Promise<Assets> | undefined;
  const getAssets = () => {
    if (assets === undefined) {
      assets = loadAssets();
      assets.catch(() => (assets = undefined));
    }
    return assets;
  };

  app.get('/_mock/ui', async (c) => {
    const { version } = await getAssets();
    return c.html(inspectorPage(`/_mock/ui/assets/${version}/`), 200, {
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': INSPECTOR_CSP,
    });
  });
  app.get('/_mock/ui/assets/:version/:file', async (c) => {
    const { version, files } = await getAssets();
    const name = c.req.param('file');
    // Names from the folder listing only, never paths; an old version is gone, not served stale.
    const file = c.req.param('version') === version ? files.get(name) : undefined;
    if (file === undefined) throw notFound('Inspector asset', name);
    return c.body(file.bytes, 200, {
      'Content-Type': file.type,
      'Cache-Control': `public, max-age=${YEAR_S}, immutable`,
      'Content-Security-Policy': INSPECTOR_CSP,
      'X-Content-Type-Options': 'nosniff',
    });
  });
}
