import type { TaskTypeDefinition } from '../type-definition.js';
import { namedentityrecognition } from './namedentityrecognition.js';
import { textcollection } from './textcollection.js';

/** The text task types; each lives in its own file beside this one. */
export const textTypes: TaskTypeDefinition[] = [textcollection, namedentityrecognition];
