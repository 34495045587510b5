import { stringify } from 'yaml';
import type { RouteSpec } from '../http/route.js';
import { buildOpenApi } from './build.js';
import { controlNamedSchemas, namedSchemas } from './components.js';

export const API_VERSION = '1.0.0';

export function apiDocument(routes: RouteSpec[]) {
  return buildOpenApi(routes, namedSchemas(), {
    title: 'Data labeling task service (v1)',
    version: API_VERSION,
    description:
      'The v1 REST interface of the data-labeling task service, as served by labelmock. ' +
      'Authenticate with HTTP Basic: the API key as user name and an empty password. ' +
      'Every success is HTTP 200; every error body is {"status_code", "error"}.',
    serverUrl: 'http://127.0.0.1:3000',
  });
}

export function controlDocument(routes: RouteSpec[]) {
  return buildOpenApi(routes, controlNamedSchemas(), {
    title: 'labelmock control plane',
    version: API_VERSION,
    description:
      'Test-control routes of labelmock: complete, fail or redo tasks, move the virtual clock, change settings, ' +
      "reset, export and import state. Authenticated with the same keys; they act only on the caller's tenant.",
    serverUrl: 'http://127.0.0.1:3000',
  });
}

/** YAML without anchors: generated schemas share objects, and aliases would make the file hard to read. */
export const toYaml = (document: unknown) => stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
