import { getPath } from 'hono/utils/url';

/**
 * The request path as routes see it: repeated slashes collapsed and a trailing slash dropped.
 * The official TypeScript SDK builds `/studio/projects/{p}/groups/` (trailing slash) and
 * `/studio/projects/{p}/groups//{g}` (double slash); the real service answers both.
 * Encoded slashes (`%2F`) inside names stay encoded, so names are never split.
 */
export function normalizedPath(request: Request): string {
  const path = getPath(request).replace(/\/{2,}/g, '/');
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
