import type { TaskTypeDefinition } from '../type-definition.js';

/** The text task types; each lives in its own file beside this one. */
export const textTypes: TaskTypeDefinition[] = [];
