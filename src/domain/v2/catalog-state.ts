import { z } from 'zod';
import { JsonObjectSchema } from '../common/metadata.js';
import { TimestampSchema } from '../common/values.js';

/** v2's deliveries, response schemas and datasets as a state export carries them (store/v2-catalog.ts). */

const id = z.string().min(1);

export const DeliveryStateSchema = z
  .object({
    id,
    name: z.string(),
    project: z.string(),
    task_ids: z.array(z.string()),
    delivered_at: TimestampSchema,
    response_schema_id: z.string().optional(),
  })
  .strict();

// name and created_*: absent from exports made before they existed; restored with defaults.
export const ResponseSchemaStateSchema = z
  .object({
    id,
    json: z.string(),
    name: z.string().optional(),
    created_by: z.string().optional(),
    created_at: TimestampSchema.optional(),
  })
  .strict();

export const DatasetTaskStateSchema = z
  .object({
    task_id: id,
    response: JsonObjectSchema,
    attachments: z.array(z.object({ id, file_id: id }).strict()).optional(),
  })
  .strict();

/** A dataset's delivery, and a dataset, with the list below them left as it is (an import checks it in slices). */
export const DatasetDeliveryEnvelopeSchema = z
  .object({ id, name: z.string(), delivered_at: TimestampSchema, tasks: z.array(z.unknown()) })
  .strict();
export const DatasetEnvelopeSchema = z.object({ id, name: z.string(), deliveries: z.array(z.unknown()) }).strict();

export const V2CatalogStateSchema = z
  .object({
    deliveries: z.array(DeliveryStateSchema).default([]),
    schemas: z.array(ResponseSchemaStateSchema).default([]),
    datasets: z
      .array(
        DatasetEnvelopeSchema.extend({
          deliveries: z.array(DatasetDeliveryEnvelopeSchema.extend({ tasks: z.array(DatasetTaskStateSchema) })),
        }),
      )
      .default([]),
  })
  .strict();
