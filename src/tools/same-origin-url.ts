/**
 * A path and query on `target`'s origin (below its path), and nowhere else: where `labelmock record` forwards a
 * request and where `labelmock drift` replays one. The request target is taken as a path only: an absolute-form
 * target (`GET http://other/ HTTP/1.1`) or one without a leading slash (`7/admin`, which joined to a base URL
 * names another port) is refused, and a path that starts with two slashes (`//other/x`, what a base URL with a
 * trailing slash makes of `/v1/tasks`) stays a path on the target, never a host. Both tools carry credentials:
 * only their target's origin may ever be contacted.
 */
export function urlOnOrigin(target: URL, requestTarget: string): URL | { refused: string } {
  if (!requestTarget.startsWith('/')) {
    return { refused: `the request target must be a path starting with "/", not "${requestTarget.slice(0, 100)}"` };
  }
  const queryAt = requestTarget.indexOf('?');
  const path = queryAt < 0 ? requestTarget : requestTarget.slice(0, queryAt);
  const url = new URL(target.origin);
  // Set as a path, never parsed as a reference: "//host/x" is then the path "//host/x" on the target.
  url.pathname = `${target.pathname.replace(/\/$/, '')}${path}`;
  url.search = queryAt < 0 ? '' : requestTarget.slice(queryAt);
  if (url.origin !== target.origin) return { refused: `it would leave ${target.origin}` };
  return url;
}
