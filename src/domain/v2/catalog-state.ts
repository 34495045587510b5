import { z } from 'zod';
import { JsonObjectSchema } from '../common/metadata.js';
import { TimestampSchema } from '../common/values.js';

/** v2's deliveries, response schemas and datasets as a state export carries them (store/v2-catalog.ts). */

const id = z.string().min(1);

export const V2CatalogStateSchema = z
  .object({
    deliveries: z
      .array(
        z
          .object({
            id,
            name: z.string(),
            project: z.string(),
            task_ids: z.array(z.string()),
            delivered_at: TimestampSchema,
            response_schema_id: z.string().optional(),
          })
          .strict(),
      )
      .default([]),
    // name and created_*: absent from exports made before they existed; restored with defaults.
    schemas: z
      .array(
        z
          .object({
            id,
            json: z.string(),
            name: z.string().optional(),
            created_by: z.string().optional(),
            created_at: TimestampSchema.optional(),
          })
          .strict(),
      )
      .default([]),
    datasets: z
      .array(
        z
          .object({
            id,
            name: z.string(),
            deliveries: z.array(
              z
                .object({
                  id,
                  name: z.string(),
                  delivered_at: TimestampSchema,
                  tasks: z.array(
                    z
                      .object({
                        task_id: id,
                        response: JsonObjectSchema,
                        attachments: z.array(z.object({ id, file_id: id }).strict()).optional(),
                      })
                      .strict(),
                  ),
                })
                .strict(),
            ),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();
