import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { TaskIdSchema, TimestampSchema } from '../common/values.js';

/**
 * Quality tasks of rapid projects: evaluation tasks (check taskers on work with a known answer) and
 * training tasks (teach them). Each is a task request plus the answer it expects.
 */

const QUALITY_TASK_KINDS = ['evaluation', 'training'] as const;
export type QualityTaskKind = (typeof QUALITY_TASK_KINDS)[number];

/** The types the official Python client documents for quality tasks. */
export const QUALITY_TASK_TYPES = [
  'documenttranscription',
  'segmentannotation',
  'videoplaybackannotation',
  'imageannotation',
  'textcollection',
  'namedentityrecognition',
] as const;

export const QualityTaskTypeParamsSchema = z.object({ type: z.string() });

/** The request: a task creation body of the type, plus the expected answer (and, for evaluations, a starting one). */
export const QualityTaskBodyDocSchema = extendApi(
  z
    .object({
      project: z.string().min(1),
      expected_response: z.record(z.unknown()),
      initial_response: z.record(z.unknown()).optional(),
    })
    .passthrough(),
  {
    description:
      'The creation parameters of the task type (project required, a rapid project), ' +
      "plus expected_response in the type's response shape",
  },
);

export const QualityTaskSchema = z.object({
  id: TaskIdSchema,
  kind: z.enum(QUALITY_TASK_KINDS),
  type: z.string(),
  project: z.string(),
  instruction: z.string().optional(),
  params: z.record(z.unknown()),
  expected_response: z.record(z.unknown()),
  initial_response: z.record(z.unknown()).optional(),
  created_at: TimestampSchema,
});
export type QualityTask = z.infer<typeof QualityTaskSchema>;

/** GET /v1/projects/{name}/taskTemplates: the project's task template. */
export const TaskTemplateSchema = z.object({
  id: TaskIdSchema,
  project: z.string(),
  version: z.number().int(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  /** Each `{{name}}` placeholder of the project's current instruction, with its default value (null). */
  template_variables: z.record(z.unknown()),
});
