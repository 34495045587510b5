import { createRequire } from 'node:module';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';

/**
 * The HAR 1.2 JSON Schema of the har-schema package (the one har-validator used), compiled once: an
 * independent check of what labelmock writes, apart from its own zod schema of HAR.
 */
const require = createRequire(import.meta.url);
const schemas = require('har-schema') as Record<string, { $id: string }>;

// ajv-formats is CommonJS with a `default` export: under NodeNext the default import is the module object.
const addFormats = formats.default;
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json'));
addFormats(ajv);
for (const schema of Object.values(schemas)) ajv.addSchema(schema);
const validate = ajv.getSchema('har.json#');

/** The schema's complaints about `har` (none: an empty list). */
export function harProblems(har: unknown): string[] {
  if (!validate) throw new Error('har-schema has no har.json');
  if (validate(har)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
