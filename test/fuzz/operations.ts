import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** The operations the fuzz test drives: every one of openapi.yaml, and of the control plane's document. */

export type JsonSchema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** The JSON body's schema, when the operation takes one. */
  body?: JsonSchema;
  multipart: boolean;
  /** For $ref lookups. */
  components: Record<string, JsonSchema>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const components = doc.components?.schemas ?? {};
  const out: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: (op.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, schema: p.schema ?? {} })),
        ...(content['application/json'] && { body: content['application/json'].schema ?? {} }),
        multipart: content['multipart/form-data'] !== undefined,
        components,
      });
    }
  }
  return out;
}

export const publicDocument = (): OpenApiDocument =>
  parse(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
