/**
 * The HTML of GET /docs: Scalar's API reference over both documents, from files this server serves.
 * Nothing on the page may reach another host: labelmock runs in CI and on machines without a network.
 */

/** Both documents, switchable from the page's document selector; the interface opens first. */
const SOURCES = [
  { title: 'Interface (v1)', slug: 'interface', url: '/openapi.json', default: true },
  { title: 'v2 (client.v2)', slug: 'v2', url: '/openapi-v2.json' },
  { title: 'Control plane (/_mock)', slug: 'control-plane', url: '/_mock/openapi.json' },
];

/**
 * Scalar's defaults that would leave the machine, all turned off: the fonts it loads from its CDN,
 * telemetry, the AI agent and MCP panels (they call Scalar's hosted services), and the developer
 * toolbar (shown on localhost by default; it offers to publish the document to Scalar's registry).
 */
const CONFIGURATION = {
  sources: SOURCES,
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
};

/**
 * What the browser may load: this origin only, so a default we missed fails loudly in the browser test
 * (a refused request is a console error) instead of quietly calling out. Scalar injects its styles
 * inline and starts from an inline script; images and fonts may also be data: URLs.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * `scriptUrl` carries the package version, so the bundle can be cached for good. The documents' server
 * becomes the page's own origin: "Test Request" then calls the server the reader is looking at.
 */
export function docsPage(scriptUrl: string): string {
  // `<` escaped: the JSON sits inside a <script> element.
  const configuration = JSON.stringify(CONFIGURATION).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>labelmock API reference</title>
    <link rel="icon" href="data:," />
  </head>
  <body>
    <div id="app"></div>
    <script src="${scriptUrl}"></script>
    <script>
      const configuration = ${configuration};
      configuration.servers = [{ url: window.location.origin, description: 'This labelmock server' }];
      Scalar.createApiReference('#app', configuration);
    </script>
  </body>
</html>
`;
}
