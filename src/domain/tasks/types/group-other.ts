import type { TaskTypeDefinition } from '../type-definition.js';
import { otherTaskTypes } from './other-types.js';

/** The other task types: built from one table in other-types.ts (their parameters are not specified). */
export const otherTypes: TaskTypeDefinition[] = [...otherTaskTypes];
