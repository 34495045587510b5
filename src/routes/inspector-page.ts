/**
 * The HTML shell of GET /_mock/ui: the same for every visitor. The key lives in the URL fragment and the
 * browser's storage, never on the server, so nothing here is per tenant; the client code fetches the rest.
 */

/**
 * This origin only, and no inline code at all: the client builds the DOM with text nodes, so even a
 * slip that put task data into markup could not run it. `blob:` images are an uploaded attachment's bytes,
 * read with the key and drawn under the task's shapes; another host's attachment is never loaded.
 */
export const INSPECTOR_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** `assets` is the versioned folder URL (ending in `/`), so the files can be cached for good. */
export function inspectorPage(assets: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>labelmock inspector</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${assets}inspector.css" />
    <script type="module" src="${assets}app.mjs"></script>
  </head>
  <body>
    <header id="top"></header>
    <main id="view"><p>Loading…</p></main>
  </body>
</html>
`;
}
