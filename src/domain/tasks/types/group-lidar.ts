import type { TaskTypeDefinition } from '../type-definition.js';
import { lidarannotation } from './lidarannotation.js';
import { lidarlinking } from './lidarlinking.js';
import { lidarsegmentation } from './lidarsegmentation.js';
import { lidartopdown } from './lidartopdown.js';

/** The lidar task types; each lives in its own file beside this one. */
export const lidarTypes: TaskTypeDefinition[] = [lidarannotation, lidarsegmentation, lidartopdown, lidarlinking];
