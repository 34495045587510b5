import { z } from 'zod';
import { StoredMetadataSchema } from '../common/metadata.js';
import { OffsetPageFieldsSchema } from '../common/offset-page.js';
import { CallbackTargetSchema, MetadataSchema, TimestampSchema } from '../common/values.js';

/** Wire shapes of batches. */

export const BatchStatusSchema = z.enum(['staging', 'in_progress', 'completed']);

export const BatchSchema = z.object({
  name: z.string(),
  project: z.string(),
  status: BatchStatusSchema,
  created_at: TimestampSchema,
  completed_at: TimestampSchema.optional(),
  metadata: StoredMetadataSchema,
  callback: z.string().optional(),
  calibration_batch: z.boolean().optional(),
  self_label_batch: z.boolean().optional(),
  priority: z.number().int().optional(),
});
export type Batch = z.infer<typeof BatchSchema>;

const BatchCountsSchema = z.object({
  pending: z.number().int(),
  completed: z.number().int(),
  error: z.number().int(),
  canceled: z.number().int(),
});

/** `GET /v1/batches/{name}/status`: the batch status and its tasks counted by status. */
export const BatchStatusResultSchema = BatchCountsSchema.extend({ status: BatchStatusSchema });

/**
 * A page of batches with the real service's page fields (domain/common/offset-page.ts); the TypeScript SDK reads
 * `total` and labelmock adds `has_more`, as its other lists have.
 */
export const BatchListSchema = OffsetPageFieldsSchema.extend({
  docs: z.array(BatchSchema.extend({ tasks: BatchCountsSchema.optional() })),
  total: z.number().int(),
  has_more: z.boolean(),
});

export const CreateBatchBodySchema = z
  .object({
    project: z.string().min(1),
    name: z.string().min(1).max(512),
    callback: z.union([CallbackTargetSchema, z.literal('')]).optional(),
    calibration_batch: z.boolean().optional(),
    self_label_batch: z.boolean().optional(),
    // Recent Python clients send metadata (an empty object by default).
    metadata: MetadataSchema.optional(),
  })
  .strict();

export const BatchPriorityBodySchema = z.object({ priority: z.number().int().min(10).max(30) }).strict();

export const BatchNameParamsSchema = z.object({ batchName: z.string() });
