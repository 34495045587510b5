import type { TaskTypeDefinition } from '../type-definition.js';
import { segmentannotation } from './segmentannotation.js';
import { videoannotation } from './videoannotation.js';
import { videoplaybackannotation } from './videoplaybackannotation.js';

/** The image-like task types; each lives in its own file beside this one. */
export const imageLikeTypes: TaskTypeDefinition[] = [segmentannotation, videoannotation, videoplaybackannotation];
