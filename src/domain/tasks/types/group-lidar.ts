import type { TaskTypeDefinition } from '../type-definition.js';

/** The lidar task types; each lives in its own file beside this one. */
export const lidarTypes: TaskTypeDefinition[] = [];
