import type { TaskTypeDefinition } from '../type-definition.js';

/** The image-like task types; each lives in its own file beside this one. */
export const imageLikeTypes: TaskTypeDefinition[] = [];
