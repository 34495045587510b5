import type { SchemaObject } from 'openapi3-ts/oas31';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * One small component per task type: its `type` tag and the shape of its `response`. The Task
 * component lists them in a `oneOf`; each branch's `type` is one string value, so a task validates
 * against exactly one branch (its response against its own type's schema) and generated clients
 * narrow a task by `type`. No `discriminator`: over `allOf`-built branches it breaks some generators,
 * and the constants already say it all.
 */
export function taskBranch(def: TaskTypeDefinition): SchemaObject {
  return {
    description: `A ${def.type} task; \`response\` is present once the task is completed`,
    allOf: [
      schemaRef('TaskCommon'),
      {
        type: 'object',
        properties: {
          // A one-value enum rather than `const`: every generator reads it as the literal type.
          type: { type: 'string', enum: [def.type] },
          params: schemaRef(`${def.schemaName}Params`),
          response: schemaRef(`${def.schemaName}Response`),
        },
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
  };
}
