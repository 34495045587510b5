import { generateSchema } from '@anatine/zod-openapi';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { type ZodTypeAny, z } from 'zod';
import { BatchListSchema, BatchSchema, CreateBatchBodySchema } from '../domain/batches/schemas.js';
import { CallbackJournalSchema } from '../domain/callbacks/schemas.js';
import { ERROR_SCHEMA, ErrorResponseSchema } from '../domain/common/error-response.js';
import { LabelObjectSchema } from '../domain/common/labels.js';
import { MetadataSchema, StoredMetadataSchema } from '../domain/common/metadata.js';
import { TagsSchema, TimestampSchema } from '../domain/common/values.js';
import {
  ClockAdvanceResultSchema,
  ClockSchema,
  HealthSchema,
  SettingsSchema,
  StateSchema,
} from '../domain/control/schemas.js';
import { FileSchema } from '../domain/files/schemas.js';
import { CreateProjectBodySchema, ExtendedProjectSchema, ProjectSchema } from '../domain/projects/schemas.js';
import { LabelerGroupSchema, StudioBatchSchema } from '../domain/studio/schemas.js';
import { AnnotationAttributeSchema } from '../domain/tasks/attributes.js';
import { CommonCreateShape } from '../domain/tasks/common-params.js';
import { GeometriesSchema, ObjectsToAnnotateSchema } from '../domain/tasks/geometries.js';
import { ImageAnnotationSchema, ImageHypothesisSchema } from '../domain/tasks/image-annotations.js';
import { TASK_TYPES } from '../domain/tasks/registry.js';
import { deliveredResponseSchema } from '../domain/tasks/result-file.js';
import { AuditSchema, LimitedTaskSchema, TaskListSchema, TaskSchema } from '../domain/tasks/task.js';
import { FieldConditionSchema } from '../domain/tasks/text-fields.js';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';
import { TeamSchema } from '../domain/teams/schemas.js';
import { AnnotationSchema } from '../domain/v2/annotations.js';
import {
  V2DatasetDeliveryListSchema,
  V2DatasetDeliverySchema,
  V2DatasetDeliveryTasksSchema,
  V2DatasetListSchema,
  V2DatasetSchema,
  V2DatasetTaskListSchema,
  V2DatasetTaskSchema,
  V2DeliveredTasksSchema,
  V2DeliveryListSchema,
  V2DeliverySchema,
  V2DeliveryTasksSchema,
  V2SchemaResultSchema,
} from '../domain/v2/catalog.js';
import {
  V2BatchListSchema,
  V2BatchMetadataBodySchema,
  V2BatchOperationResultSchema,
  V2BatchSchema,
  V2BatchSelectorSchema,
  V2BatchStatusSchema,
  V2ChatTaskBodySchema,
  V2CreateBatchBodySchema,
  V2ProjectListSchema,
  V2ProjectSchema,
  V2TaskListSchema,
  V2TaskMetadataBodySchema,
  V2TaskSchema,
  V2TaskStatusSchema,
} from '../domain/v2/objects.js';
import { ThreadSchema } from '../domain/v2/threads.js';
import { conciseExample } from './concise-example.js';
import { responseExample } from './examples.js';
import { asSchema, tidySchema } from './reuse.js';
import { taskBranch, typedTask } from './task-components.js';

/**
 * A named schema under components/schemas. A zod one is generated from its output side (what the
 * server answers) unless `input` (what it accepts); `finish` amends the generated JSON. Every
 * subtree of the document deep-equal to a component's generated JSON becomes a `$ref` to it.
 */
export type Component =
  | {
      name: string;
      zod: ZodTypeAny;
      input?: boolean;
      finish?: (generated: SchemaObject) => SchemaObject;
      /** Subtrees equal to this schema refer to that component instead (TaskCommon: Task). */
      refAs?: string;
    }
  | { name: string; json: SchemaObject };

const withExample = (schema: SchemaObject, example: unknown): SchemaObject =>
  example === undefined ? schema : { ...schema, examples: [example] };

/**
 * The server checks a creation body after merging in the parameters of its project (and batch):
 * a required parameter the project supplies may be left out. Only a body naming neither must carry
 * every required parameter itself. Said with `if`/`then`, which validators apply and code generators
 * leave alone: a generated client keeps every field typed (an `anyOf` of required lists next to
 * `properties` made some generators drop the properties).
 */
function projectMayFill(generated: SchemaObject): SchemaObject {
  const { required, ...rest } = generated;
  if (!required?.length) return generated;
  // Each subschema names the properties it requires (`true`: they are defined above), as Redocly wants.
  // (openapi3-ts types neither boolean schemas nor if/then: cast.)
  const requiring = (keys: string[]) => ({
    required: keys,
    properties: Object.fromEntries(keys.map((k) => [k, true])),
  });
  return {
    ...rest,
    description:
      (rest.description ? `${rest.description}. ` : '') +
      `Required unless the task's project supplies them (setParams or the project's params): ${required.join(', ')}. ` +
      'The body merged with the project parameters is checked.',
    // Neither a project nor a batch (which names one): the body holds them all. Inside allOf, beside the
    // common parameters, so a failed `if` leaves what the others evaluated evaluated (Ajv drops it otherwise).
    allOf: [
      ...(rest.allOf ?? []),
      {
        if: { not: { anyOf: [requiring(['project']), requiring(['batch'])] } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's `then` keyword in a document, never awaited
        then: requiring(required),
      },
    ],
  } as SchemaObject;
}

/** The parameters every creation route takes: one component, which each creation request extends. */
const COMMON_CREATE = 'CreateTaskCommon';
const CommonCreateSchema = z.object(CommonCreateShape);

/**
 * A creation request: `allOf` the common parameters by reference and an object of its own
 * parameters. Its own sit inside `allOf`, not beside it: some generators (openapi-zod-client) read
 * only `allOf` and would drop sibling `properties`. A strict request keeps refusing unknown keys with
 * `unevaluatedProperties` (what the `allOf` members define counts as evaluated, where
 * `additionalProperties` would refuse it).
 */
function extendsCommon(generated: SchemaObject): SchemaObject {
  const common = asSchema(tidySchema(generateSchema(CommonCreateSchema, false, '3.1'))).properties ?? {};
  const own = Object.entries(generated.properties ?? {}).filter(
    ([key, value]) => JSON.stringify(value) !== JSON.stringify(common[key]),
  );
  if (own.length === Object.keys(generated.properties ?? {}).length) return generated;
  const { additionalProperties, properties: _all, ...rest } = generated;
  return {
    ...rest,
    allOf: [
      { $ref: `#/components/schemas/${COMMON_CREATE}` },
      ...(own.length > 0 ? [{ type: 'object' as const, properties: Object.fromEntries(own) }] : []),
    ],
    ...(additionalProperties === false ? { unevaluatedProperties: false } : { additionalProperties }),
  };
}

const defs = () => Object.values(TASK_TYPES);

/**
 * A task's `params` for one type: the type's creation parameters, typed as the creation request
 * types them, none required, other keys allowed (the server adds derived ones, and a project's
 * parameters join them). Generators then type `task.params.attachment` once `task.type` is narrowed.
 */
function paramsComponent(def: TaskTypeDefinition): Component {
  const common = new Set(Object.keys(CommonCreateShape));
  const generated = asSchema(tidySchema(generateSchema(def.createSchema, false, '3.1')));
  const own = Object.entries(generated.properties ?? {}).filter(([key]) => !common.has(key));
  return {
    name: `${def.schemaName}Params`,
    json: {
      type: 'object',
      description: `The parameters of a ${def.type} task: what its creation took, merged with its project's`,
      properties: Object.fromEntries(own),
    },
  };
}

/** The Task, its per-type branches and responses: both documents answer tasks. */
function taskComponents(): Component[] {
  return [
    { name: 'Task', json: typedTask(defs()) },
    { name: 'TaskCommon', zod: TaskSchema, refAs: 'Task' },
    { name: 'Audit', zod: AuditSchema },
    { name: 'Metadata', zod: StoredMetadataSchema },
    { name: 'Timestamp', zod: TimestampSchema },
    ...defs().map((def): Component => ({ name: `${def.schemaName}Task`, json: taskBranch(def) })),
    ...defs().map(paramsComponent),
    ...defs().map(
      (def): Component => ({
        name: `${def.schemaName}Response`,
        // A results-file type's response is the link; the file's content is its own component.
        zod: deliveredResponseSchema(def),
        finish: (generated) => withExample(generated, conciseExample(responseExample(def.type))),
      }),
    ),

    { name: 'ImageAnnotation', zod: ImageAnnotationSchema },
  ];
}

/** Pieces of creation requests that several task types share. */
function requestPieces(): Component[] {
  return [
    { name: 'Geometries', zod: GeometriesSchema, input: true },
    { name: 'ObjectsToAnnotate', zod: ObjectsToAnnotateSchema, input: true },
    { name: 'LabelObject', zod: LabelObjectSchema, input: true },
    { name: 'MetadataInput', zod: MetadataSchema, input: true },
    { name: 'ImageHypothesis', zod: ImageHypothesisSchema, input: true },
    { name: 'FieldCondition', zod: FieldConditionSchema, input: true },
  ];
}

/** Components of openapi.yaml, in the order they are listed. */
export function apiComponents(): Component[] {
  return [
    { name: ERROR_SCHEMA, zod: ErrorResponseSchema },
    ...taskComponents(),
    { name: 'LimitedTask', zod: LimitedTaskSchema },
    { name: 'TaskList', zod: TaskListSchema },
    { name: 'AnnotationAttribute', zod: AnnotationAttributeSchema },
    ...defs().map(
      (def): Component => ({
        name: `${def.schemaName}CreateRequest`,
        zod: def.createSchema,
        input: true,
        finish: (generated) => projectMayFill(extendsCommon(generated)),
      }),
    ),
    { name: COMMON_CREATE, zod: CommonCreateSchema, input: true },
    ...requestPieces(),
    { name: 'Project', zod: ProjectSchema },
    { name: 'ExtendedProject', zod: ExtendedProjectSchema },
    { name: 'CreateProjectRequest', zod: CreateProjectBodySchema, input: true },
    { name: 'Batch', zod: BatchSchema },
    { name: 'BatchList', zod: BatchListSchema },
    { name: 'CreateBatchRequest', zod: CreateBatchBodySchema, input: true },
    { name: 'FileRecord', zod: FileSchema },
    { name: 'StudioBatch', zod: StudioBatchSchema },
    { name: 'Team', zod: TeamSchema },
    { name: 'LabelerGroup', zod: LabelerGroupSchema },
    { name: 'Tags', zod: TagsSchema, input: true },
  ];
}

/** Components of the control plane's document (GET /_mock/openapi.json). */
export function controlComponents(): Component[] {
  return [
    { name: ERROR_SCHEMA, zod: ErrorResponseSchema },
    ...taskComponents(),
    { name: 'Clock', zod: ClockSchema },
    { name: 'ClockAdvanceResult', zod: ClockAdvanceResultSchema },
    { name: 'Settings', zod: SettingsSchema },
    { name: 'State', zod: StateSchema },
    { name: 'CallbackJournal', zod: CallbackJournalSchema },
    { name: 'Health', zod: HealthSchema },
    { name: 'Project', zod: ProjectSchema },
    // What task params are made of, once by reference as in openapi.yaml (params hold no metadata).
    { name: 'AnnotationAttribute', zod: AnnotationAttributeSchema },
    ...requestPieces().filter((piece) => piece.name !== 'MetadataInput'),
    // v2 threads, which a completion may give and the state holds: once, by reference.
    ...threadComponents(),
  ];
}

/** A v2 thread and its annotations, named as the official Python client's models are. */
function threadComponents(): Component[] {
  return [
    { name: 'Thread', zod: ThreadSchema },
    { name: 'Annotation', zod: AnnotationSchema },
    ...AnnotationSchema.options.map(
      (option): Component => ({ name: annotationName(option.shape.type.value), zod: option }),
    ),
  ];
}

const annotationName = (type: string) =>
  `Annotation${type.replace(/(^|_)([a-z])/g, (_m, _sep, letter: string) => letter.toUpperCase())}`;

/** Components of the v2 document, named as the official Python client's models are. */
export function v2Components(): Component[] {
  return [
    { name: ERROR_SCHEMA, zod: ErrorResponseSchema },
    { name: 'Project', zod: V2ProjectSchema },
    { name: 'Batch', zod: V2BatchSchema },
    { name: 'BatchStatus', zod: V2BatchStatusSchema },
    { name: 'Task', zod: V2TaskSchema },
    { name: 'TaskStatus', zod: V2TaskStatusSchema },
    ...threadComponents(),
    { name: 'Timestamp', zod: TimestampSchema },
    { name: 'GetProjectsResponse', zod: V2ProjectListSchema },
    { name: 'GetBatchesResponse', zod: V2BatchListSchema },
    { name: 'GetTasksResponse', zod: V2TaskListSchema },
    { name: 'BatchOperationResponse', zod: V2BatchOperationResultSchema },
    { name: 'CreateBatchRequest', zod: V2CreateBatchBodySchema, input: true },
    { name: 'BatchOperationRequest', zod: V2BatchSelectorSchema, input: true },
    { name: 'SetBatchMetadataRequest', zod: V2BatchMetadataBodySchema, input: true },
    { name: 'SetTaskMetadataRequest', zod: V2TaskMetadataBodySchema, input: true },
    { name: 'CreateChatTaskRequest', zod: V2ChatTaskBodySchema, input: true },
    { name: 'Delivery', zod: V2DeliverySchema },
    { name: 'GetDeliveriesResponse', zod: V2DeliveryListSchema },
    { name: 'GetDeliveredTasksResponse', zod: V2DeliveredTasksSchema },
    { name: 'GetDeliveryTasksResponse', zod: V2DeliveryTasksSchema },
    { name: 'GetSchemaResponse', zod: V2SchemaResultSchema },
    { name: 'Dataset', zod: V2DatasetSchema },
    { name: 'GetDatasetsResponse', zod: V2DatasetListSchema },
    { name: 'DatasetDelivery', zod: V2DatasetDeliverySchema },
    { name: 'GetDatasetDeliveriesResponse', zod: V2DatasetDeliveryListSchema },
    { name: 'GetDatasetDeliveryResponse', zod: V2DatasetDeliveryTasksSchema },
    { name: 'DatasetTask', zod: V2DatasetTaskSchema },
    { name: 'GetDatasetTasksResponse', zod: V2DatasetTaskListSchema },
  ];
}
