import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { JsonObjectSchema } from '../common/metadata.js';
import { ObjectIdTextSchema, TimestampSchema } from '../common/values.js';
import { expandable, IdSchema, NextTokenSchema, V2ProjectSchema, V2TaskSchema } from './objects.js';
import { ThreadSchema } from './threads.js';

/**
 * v2's read-only resources: deliveries of completed tasks, response schemas, datasets. The service
 * has no route that makes them; labelmock's control plane does (POST /_mock/v2/...).
 */

export const V2DeliverySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    task_count: z.number().int(),
    delivered_at: TimestampSchema,
    project: expandable(V2ProjectSchema, 'project'),
  })
  .strict();

export const V2DeliveryListSchema = z.object({ deliveries: z.array(V2DeliverySchema) }).strict();

/** `GET /v2/delivery`: the delivery (its id, or itself with expand=delivery) and a page of its tasks. */
export const V2DeliveredTasksSchema = z
  .object({
    delivery: expandable(V2DeliverySchema, 'delivery'),
    tasks: z.array(V2TaskSchema),
    next_token: NextTokenSchema,
  })
  .strict();

/**
 * `GET /v2/delivery/tasks`: tasks with their delivered responses (the threads GET /v2/task shows); a task never
 * delivered has null in the delivery fields.
 */
export const V2DeliveryTasksSchema = z
  .object({
    docs: z.array(
      z
        .object({
          task_id: IdSchema,
          created_at: TimestampSchema,
          delivery_id: IdSchema.nullable(),
          delivered_at: TimestampSchema.nullable(),
          response_schema_id: z.string().nullable(),
          response: z
            .object({ threads: z.array(ThreadSchema) })
            .strict()
            .nullable(),
        })
        .strict(),
    ),
    total: extendApi(z.number().int(), { description: 'Tasks in this page (the client model: "in the current page")' }),
    next_token: NextTokenSchema,
  })
  .strict();

export const V2SchemaResultSchema = z
  .object({
    schema: z
      .object({
        id: z.string(),
        json: extendApi(z.string(), { description: 'The JSON schema, as text' }),
        name: z.string(),
        createdBy: extendApi(z.string(), { description: 'Who registered it: the account' }),
        createdAt: TimestampSchema,
        updatedBy: z.string(),
        updatedAt: TimestampSchema,
      })
      .strict(),
  })
  .strict();

export const V2DatasetSchema = z.object({ id: IdSchema, name: z.string() }).strict();
export const V2DatasetListSchema = z.object({ datasets: z.array(V2DatasetSchema) }).strict();

export const V2DatasetDeliverySchema = z
  .object({
    id: IdSchema,
    name: z.string(),
    delivered_at: TimestampSchema,
    dataset: expandable(V2DatasetSchema, 'dataset'),
    metadata: z.object({ task_count: z.number().int(), turn_count: z.number().int() }).strict(),
  })
  .strict();
export const V2DatasetDeliveryListSchema = z.object({ deliveries: z.array(V2DatasetDeliverySchema) }).strict();

export const V2DatasetTaskSchema = z
  .object({
    task_id: IdSchema,
    dataset: expandable(V2DatasetSchema, 'dataset'),
    delivery: expandable(V2DatasetDeliverySchema, 'delivery'),
    response: z.record(z.unknown()),
  })
  .strict();

export const V2DatasetTaskListSchema = z
  .object({ tasks: z.array(V2DatasetTaskSchema), next_token: NextTokenSchema })
  .strict();

export const V2DatasetDeliveryTasksSchema = z
  .object({
    delivery: expandable(V2DatasetDeliverySchema, 'delivery'),
    tasks: z.array(V2DatasetTaskSchema),
    next_token: NextTokenSchema,
  })
  .strict();

/* ---- what the control plane takes to make them ---- */

const nameSchema = z.string().min(1).max(512);

export const DeliverBodySchema = extendApi(
  z
    .object({
      name: nameSchema,
      project: extendApi(z.string().min(1), { description: 'The project, by name or v2 id' }),
      task_ids: extendApi(z.array(z.string().min(1)).min(1).max(10_000).optional(), {
        description: 'Completed tasks of the project to deliver; default: its completed tasks no delivery holds yet',
      }),
      response_schema_id: extendApi(z.string().min(1).optional(), {
        description: 'A schema registered with POST /_mock/v2/schemas, named by each delivered task',
      }),
    })
    .strict(),
  { description: 'The delivery: its name, project, and the completed tasks it holds' },
);

export const RegisterSchemaBodySchema = extendApi(
  z
    .object({
      id: extendApi(ObjectIdTextSchema.optional(), { description: 'Default: a new one' }),
      name: extendApi(z.string().min(1).max(512).optional(), { description: 'Default: "Schema <id>"' }),
      json: extendApi(JsonObjectSchema, { description: 'The JSON schema of the delivered responses' }),
    })
    .strict(),
  { description: 'A response JSON schema, under an id of your choice or a new one' },
);

const DatasetTaskInputSchema = z
  .object({
    task_id: z.string().min(1).max(128).optional(),
    response: JsonObjectSchema,
    attachments: z
      .array(
        z
          .object({
            id: z.string().min(1).max(128),
            file_id: extendApi(z.string().min(1), { description: 'A file uploaded with POST /v1/files/upload' }),
          })
          .strict(),
      )
      .max(100)
      .optional(),
  })
  .strict();

export const CreateDatasetBodySchema = extendApi(
  z
    .object({
      name: nameSchema,
      deliveries: z
        .array(z.object({ name: nameSchema, tasks: z.array(DatasetTaskInputSchema).max(10_000) }).strict())
        .max(1000)
        .default([]),
    })
    .strict(),
  { description: 'A dataset: its name and deliveries of dataset tasks' },
);
export type CreateDatasetBody = z.infer<typeof CreateDatasetBodySchema>;
