import type { Hono } from 'hono';
import type { OpenAPIObject } from 'openapi3-ts/oas31';
import type { AppEnv } from '../http/env.js';
import type { RouteSpec } from '../http/route.js';
import { apiDocument, controlDocument, toYaml, v2Document, withOrigin } from '../openapi/documents.js';

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
export function metaRoutes(
  app: Hono<AppEnv>,
  routes: { api: RouteSpec[]; v2: RouteSpec[]; control: RouteSpec[] },
): void {
  const origin = (url: string) => new URL(url).origin;
  const yaml = { 'Content-Type': 'application/yaml; charset=utf-8' };
  const serve = (jsonPath: string, yamlPath: string | undefined, build: () => OpenAPIObject) => {
    let document: OpenAPIObject | undefined;
    const json = perOrigin((at) => {
      document ??= build();
      return withOrigin(document, at);
    });
    const text = perOrigin((at) => toYaml(json(at)));
    app.get(jsonPath, (c) => c.json(json(origin(c.req.url)), 200));
    if (yamlPath) app.get(yamlPath, (c) => c.body(text(origin(c.req.url)), 200, yaml));
  };
  serve('/openapi.json', '/openapi.yaml', () => apiDocument(routes.api));
  serve('/openapi-v2.json', '/openapi-v2.yaml', () => v2Document(routes.v2));
  serve('/_mock/openapi.json', undefined, () => controlDocument(routes.control));
  app.get('/', (c) =>
    c.json(
      {
        name: 'labelmock',
        base_url: new URL('/v1', c.req.url).toString(),
        base_url_v2: new URL('/v2', c.req.url).toString(),
        openapi: ['/openapi.json', '/openapi.yaml'],
        openapi_v2: ['/openapi-v2.json', '/openapi-v2.yaml'],
        control_plane: '/_mock/openapi.json',
        docs: '/docs',
      },
      200,
    ),
  );
}
