import type { ZodTypeAny } from 'zod';
import {
  ClockAdvanceResultSchema,
  ClockSchema,
  HealthSchema,
  SettingsSchema,
  StateSchema,
} from '../control/schemas.js';
import { BatchListSchema, BatchSchema, CreateBatchBodySchema } from '../domain/batches/schemas.js';
import { CallbackJournalSchema } from '../domain/callbacks/schemas.js';
import { ErrorResponseSchema } from '../domain/common/error-response.js';
import { LabelObjectSchema } from '../domain/common/labels.js';
import { CreateProjectBodySchema, ExtendedProjectSchema, ProjectSchema } from '../domain/projects/schemas.js';
import { AnnotationAttributeSchema } from '../domain/tasks/attributes.js';
import { GeometriesSchema } from '../domain/tasks/geometries.js';
import { ImageAnnotationSchema } from '../domain/tasks/image-annotations.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { AuditSchema, TaskListSchema, TaskSchema } from '../domain/tasks/task.js';

/** Schemas that get a name under components/schemas; routes refer to them with $ref. */
export function namedSchemas(): [string, ZodTypeAny][] {
  const perType = Object.values(TASK_TYPES).flatMap((def): [string, ZodTypeAny][] => [
    [`${def.schemaName}CreateRequest`, def.createSchema],
    [`${def.schemaName}Response`, def.responseSchema],
  ]);
  return [
    ['Error', ErrorResponseSchema],
    ['Task', TaskSchema],
    ['TaskList', TaskListSchema],
    ['Audit', AuditSchema],
    ['Geometries', GeometriesSchema],
    ['LabelObject', LabelObjectSchema],
    ['AnnotationAttribute', AnnotationAttributeSchema],
    ['ImageAnnotation', ImageAnnotationSchema],
    ['Project', ProjectSchema],
    ['ExtendedProject', ExtendedProjectSchema],
    ['CreateProjectRequest', CreateProjectBodySchema],
    ['Batch', BatchSchema],
    ['BatchList', BatchListSchema],
    ['CreateBatchRequest', CreateBatchBodySchema],
    ...perType,
  ];
}

export function controlNamedSchemas(): [string, ZodTypeAny][] {
  return [
    ['Error', ErrorResponseSchema],
    ['Task', TaskSchema],
    ['Clock', ClockSchema],
    ['ClockAdvanceResult', ClockAdvanceResultSchema],
    ['Settings', SettingsSchema],
    ['State', StateSchema],
    ['CallbackJournal', CallbackJournalSchema],
    ['Health', HealthSchema],
  ];
}
