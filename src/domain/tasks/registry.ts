import { Rng } from '../../runtime/random.js';
import type { Task } from './task.js';
import type { TaskTypeDefinition } from './type-definition.js';
import { imageLikeTypes } from './types/group-image-like.js';
import { lidarTypes } from './types/group-lidar.js';
import { otherTypes } from './types/group-other.js';
import { textTypes } from './types/group-text.js';
import { imageannotation } from './types/imageannotation.js';

export type { TaskTypeDefinition } from './type-definition.js';

/** Every task type the mock serves, by type name (the path segment of its creation route). */
export const TASK_TYPES: Record<string, TaskTypeDefinition> = Object.fromEntries(
  [imageannotation, ...imageLikeTypes, ...lidarTypes, ...textTypes, ...otherTypes].map((def) => [def.type, def]),
);

export function findTaskType(type: string): TaskTypeDefinition | undefined {
  return Object.hasOwn(TASK_TYPES, type) ? TASK_TYPES[type] : undefined;
}

export const synthesizeResponse = (def: TaskTypeDefinition, task: Task) => def.synthesize(task, new Rng(task.task_id));
