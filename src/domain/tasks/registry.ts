import type { ZodTypeAny } from 'zod';
import { Rng } from '../../synth/random.js';
import { synthesizeImageResponse } from '../../synth/image.js';
import { checkAnnotationsFit, type FitIssue } from './annotation-fit.js';
import type { Task } from './task.js';
import { ImageAnnotationCreateSchema, ImageAnnotationResponseSchema, type ImageAnnotationCreate } from './types/imageannotation.js';

/** Everything the mock knows about one task type. */
export interface TaskTypeDefinition {
  type: string;
  summary: string;
  /** The whole creation body: common parameters plus the type's own. */
  createSchema: ZodTypeAny;
  /** Shape of `response` once the task is completed. */
  responseSchema: ZodTypeAny;
  /** Name stems of the OpenAPI components. */
  schemaName: string;
  /** Values the service adds to `params` (e.g. attachment_type). */
  paramDefaults?: Record<string, unknown>;
  /** Checks a parsed response against what this task asked for. */
  checkResponse(task: Task, response: Record<string, unknown>): FitIssue[];
  /** A valid response built from the task's own params, the same for the same task id. */
  synthesize(task: Task, rng: Rng): Record<string, unknown>;
}

type ImageParams = Pick<ImageAnnotationCreate, 'geometries' | 'annotation_attributes'>;

const imageannotation: TaskTypeDefinition = {
  type: 'imageannotation',
  summary: 'Create an image annotation task (boxes, polygons, lines, points, ellipses, cuboids)',
  createSchema: ImageAnnotationCreateSchema,
  responseSchema: ImageAnnotationResponseSchema,
  schemaName: 'ImageAnnotation',
  paramDefaults: { attachment_type: 'image' },
  checkResponse: (task, response) => {
    const params = task.params as ImageParams;
    const annotations = (response.annotations ?? []) as { type: string; label: string; attributes?: Record<string, unknown> }[];
    return checkAnnotationsFit(annotations, params.geometries, params.annotation_attributes, ['response', 'annotations']);
  },
  synthesize: (task, rng) => synthesizeImageResponse(task.params as ImageParams, rng),
};

export const TASK_TYPES: Record<string, TaskTypeDefinition> = { imageannotation };

export function findTaskType(type: string): TaskTypeDefinition | undefined {
  return Object.hasOwn(TASK_TYPES, type) ? TASK_TYPES[type] : undefined;
}

export const synthesizeResponse = (def: TaskTypeDefinition, task: Task) => def.synthesize(task, new Rng(task.task_id));
