import type { TaskTypeDefinition } from '../type-definition.js';

/** The other task types; each lives in its own file beside this one. */
export const otherTypes: TaskTypeDefinition[] = [];
