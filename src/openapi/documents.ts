import type { OpenAPIObject, ServerObject } from 'openapi3-ts/oas31';
import { stringify } from 'yaml';
import type { RouteSpec } from '../http/route.js';
import { buildOpenApi } from './build.js';
import { apiComponents, controlComponents, v2Components } from './components.js';

const API_VERSION = '1.0.0';

/**
 * The committed files' server: labelmock's default address, an absolute URL, so a client generated
 * from the file works as it is under Node (a relative `/` resolves against nothing there). A served
 * copy names the origin it was fetched from instead (`withOrigin`).
 */
const DEFAULT_SERVER: ServerObject = {
  url: 'http://127.0.0.1:3000',
  description:
    'labelmock on its default port (`npx labelmock`). The copies served at /openapi.json, /openapi-v2.json and ' +
    '/_mock/openapi.json name the address they were fetched from; point a client elsewhere with its base URL option.',
};

const SERVERS_NOTE =
  " `servers[0].url` is labelmock's default address, http://127.0.0.1:3000; the copies served at GET " +
  '/openapi.json, /openapi.yaml, /openapi-v2.json and /_mock/openapi.json name the origin they were fetched from. ' +
  "For another server, set your client's base URL (or replace `servers[0].url`).";

export function apiDocument(routes: RouteSpec[]) {
  return buildOpenApi(routes, apiComponents(), {
    title: 'Data labeling task service (v1)',
    version: API_VERSION,
    description:
      'The v1 REST interface of the data-labeling task service, as served by labelmock. ' +
      'Authenticate with HTTP Basic: the API key as user name and an empty password. ' +
      'Every success is HTTP 200; every error body is {"status_code", "error"}.' +
      SERVERS_NOTE,
    servers: [DEFAULT_SERVER],
    tags: {
      Tasks: 'Create tasks of each type, read, list and change them: cancel, metadata, tags, unique_id, audits',
      Projects: 'Projects group tasks of one type and hold the parameters their tasks inherit',
      Batches: 'Batches group the tasks of a project; finalized, they report progress',
      Files: 'Files uploaded or imported for use as task attachments',
      Teams: "The account's team members and their roles",
      Studio: 'Studio: labeler assignments, labeler groups and batch priorities',
      Quality: 'Quality: evaluation and training tasks, and labeler statistics',
    },
  });
}

export function v2Document(routes: RouteSpec[]) {
  return buildOpenApi(routes, v2Components(), {
    title: 'Data labeling task service (v2)',
    version: API_VERSION,
    description:
      'The v2 REST interface of the data-labeling task service, as served by labelmock: the official Python ' +
      "client's `client.v2`. The same projects, batches and tasks v1 shows, by id. Authenticate with a bearer " +
      'token (the API key), as the client does, or with HTTP Basic as in v1. Every error body is ' +
      '{"status_code", "error"}.' +
      SERVERS_NOTE,
    servers: [DEFAULT_SERVER],
    bearer: true,
    tags: {
      Projects: 'Projects, by id or name',
      Batches: 'Batches and their life cycle: finalize, pause, resume, cancel, metadata',
      Tasks: 'Tasks with their threads, chat task creation, metadata',
      Annotations: "The annotations of completed tasks' threads",
      Deliveries: 'Deliveries of completed tasks and their response schemas (made through the control plane)',
      Datasets: 'Datasets of delivered tasks and attachments (made through the control plane)',
    },
  });
}

export function controlDocument(routes: RouteSpec[]) {
  return buildOpenApi(routes, controlComponents(), {
    title: 'labelmock control plane',
    version: API_VERSION,
    description:
      'Test-control routes of labelmock: complete, fail or redo tasks, move the virtual clock, change settings, ' +
      "reset, export and import state. Authenticated with the same keys; they act only on the caller's tenant." +
      SERVERS_NOTE,
    servers: [DEFAULT_SERVER],
    tags: { Control: "Test control of the caller's tenant: force task outcomes, the clock, settings, state, faults" },
  });
}

/** A served copy: the same document, its server being the origin the request came to. */
export function withOrigin(document: OpenAPIObject, origin: string): OpenAPIObject {
  return { ...document, servers: [{ url: origin, description: 'The server this document was fetched from' }] };
}

/** YAML without anchors: generated schemas share objects, and aliases would make the file hard to read. */
export const toYaml = (document: unknown) => stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
