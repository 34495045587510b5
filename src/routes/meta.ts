import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.js';
import type { RouteSpec } from '../http/route.js';
import { apiDocument, controlDocument, toYaml, withOrigin } from '../openapi/documents.js';

/** Served copies per origin are kept too, but only this many: a client cannot grow them without end. */
const MAX_ORIGINS = 8;

/** A value per origin, made on first request for it, the oldest dropped past MAX_ORIGINS. */
function perOrigin<T>(make: (origin: string) => T): (origin: string) => T {
  const kept = new Map<string, T>();
  return (origin) => {
    let value = kept.get(origin);
    if (value === undefined) {
      value = make(origin);
      if (kept.size >= MAX_ORIGINS) kept.delete(kept.keys().next().value as string);
      kept.set(origin, value);
    }
    return value;
  };
}

/**
 * Public documents. Built on first request, then kept: creating an app stays cheap. Each copy names
 * the origin it was fetched from as its server, so a tool that loads it calls this very server.
 */
export function metaRoutes(app: Hono<AppEnv>, api: RouteSpec[], control: RouteSpec[]): void {
  let apiDoc: ReturnType<typeof apiDocument> | undefined;
  let controlDoc: ReturnType<typeof controlDocument> | undefined;
  const getApiDoc = () => {
    apiDoc ??= apiDocument(api);
    return apiDoc;
  };
  const getControlDoc = () => {
    controlDoc ??= controlDocument(control);
    return controlDoc;
  };
  const apiJson = perOrigin((origin) => withOrigin(getApiDoc(), origin));
  const apiYaml = perOrigin((origin) => toYaml(apiJson(origin)));
  const controlJson = perOrigin((origin) => withOrigin(getControlDoc(), origin));
  const origin = (url: string) => new URL(url).origin;

  app.get('/openapi.json', (c) => c.json(apiJson(origin(c.req.url)), 200));
  app.get('/openapi.yaml', (c) =>
    c.body(apiYaml(origin(c.req.url)), 200, { 'Content-Type': 'application/yaml; charset=utf-8' }),
  );
  app.get('/_mock/openapi.json', (c) => c.json(controlJson(origin(c.req.url)), 200));
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
