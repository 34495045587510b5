import type { SchemaObject } from 'openapi3-ts/oas31';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * One small component per task type: its `type` tag and the shape of its `response`. The Task
 * component lists them in a `oneOf` with a discriminator on `type`, so a completed task validates
 * against exactly one branch, and its response against its own type's schema.
 */
export function taskBranch(def: TaskTypeDefinition): SchemaObject {
  return {
    description: `A ${def.type} task; \`response\` is present once the task is completed`,
    allOf: [
      schemaRef('TaskCommon'),
      {
        type: 'object',
        properties: { type: { const: def.type }, response: schemaRef(`${def.schemaName}Response`) },
        required: ['type'],
      },
    ],
  };
}

/** The Task component: one branch per type, each the common fields (TaskCommon) and its own. */
export function typedTask(defs: TaskTypeDefinition[]): SchemaObject {
  return {
    description: 'A task: one unit of labeling work. Its `type` tells the shape of its `response`.',
    oneOf: defs.map((def) => schemaRef(`${def.schemaName}Task`)),
    // The mapping names each branch: without it, OpenAPI would look for a schema named like the type.
    discriminator: {
      propertyName: 'type',
      mapping: Object.fromEntries(defs.map((def) => [def.type, schemaRef(`${def.schemaName}Task`).$ref])),
    },
  };
}
