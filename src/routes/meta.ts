import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import type { RouteSpec } from '../http/route.js';
import { apiDocument, controlDocument, toYaml } from '../openapi/documents.js';

/** Public documents. Built on first request, then kept: creating an app stays cheap. */
export function metaRoutes(app: Hono<AppEnv>, api: RouteSpec[], control: RouteSpec[]): void {
  let apiDoc: ReturnType<typeof apiDocument> | undefined;
  let apiYaml: string | undefined;
  let controlDoc: ReturnType<typeof controlDocument> | undefined;
  const getApiDoc = () => {
    apiDoc ??= apiDocument(api);
    return apiDoc;
  };
  const getApiYaml = () => {
    apiYaml ??= toYaml(getApiDoc());
    return apiYaml;
  };
  const getControlDoc = () => {
    controlDoc ??= controlDocument(control);
    return controlDoc;
  };

  app.get('/openapi.json', (c) => c.json(getApiDoc(), 200));
  app.get('/openapi.yaml', (c) => c.body(getApiYaml(), 200, { 'Content-Type': 'application/yaml; charset=utf-8' }));
  app.get('/_mock/openapi.json', (c) => c.json(getControlDoc(), 200));
  app.get('/', (c) =>
    c.json(
      {
        name: 'labelmock',
        base_url: new URL('/v1', c.req.url).toString(),
        openapi: ['/openapi.json', '/openapi.yaml'],
        control_plane: '/_mock/openapi.json',
        docs: '/docs',
      },
      200,
    ),
  );
}
