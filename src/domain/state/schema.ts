import { z } from 'zod';
import { BatchSchema } from '../batches/schemas.js';
import { CallbackJournalSchema } from '../callbacks/schemas.js';
import { ClockOffsetSchema } from '../clock-bounds.js';
import { JsonObjectSchema } from '../common/metadata.js';
import { StateFilesSchema } from '../files/state.js';
import { ScheduledJobSchema } from '../jobs/schemas.js';
import { ProjectSchema } from '../projects/schemas.js';
import { QualityTaskSchema } from '../quality/quality-tasks.js';
import { SettingsSchema } from '../settings.js';
import { TaskSchema } from '../tasks/task.js';
import { teamStateFields } from '../teams/state.js';
import { V2CatalogStateSchema } from '../v2/catalog-state.js';
import { V2ErrorTypeSchema } from '../v2/objects.js';
import { ThreadsInputSchema } from '../v2/threads.js';

/**
 * The tenant's whole state as JSON (`GET`/`PUT /_mock/state`): what the state services export and
 * import, so it lives below them, not with the control routes that carry it.
 */

/** Exports made before every task carried a review status lack it on unreviewed tasks: they are pending. */
const ImportedTaskSchema = z.preprocess(
  (task) =>
    task && typeof task === 'object' && !('customer_review_status' in task)
      ? { ...task, customer_review_status: 'pending' }
      : task,
  TaskSchema,
);

const StateTaskSchema = z
  .object({
    task: ImportedTaskSchema,
    clear_unique_id_on_error: z.boolean().optional(),
    /** A results-file type's completed task: the file's content and its URL's secret. */
    result_file: z
      .object({ token: z.string().min(1), content: JsonObjectSchema })
      .strict()
      .optional(),
    /** The kind of error POST /_mock/tasks/{id}/fail gave (v2's errors[].type). */
    error_type: V2ErrorTypeSchema.optional(),
    dependent_options: z
      .object({
        defs: z.array(z.object({ type: z.string() }).passthrough()),
        require_audit: z.boolean(),
        created: z.boolean(),
      })
      .strict()
      .optional(),
    /** The v2 threads a control-plane completion gave the task. */
    threads: ThreadsInputSchema.optional(),
  })
  .strict();

/** A batch with what v2 adds: paused or cancelled, and completions deferred while paused. */
const StateBatchSchema = BatchSchema.extend({
  hold: z.enum(['paused', 'cancelled']).optional(),
  deferred: z.array(z.string()).optional(),
});

export const StateSchema = z
  .object({
    format: z.literal('labelmock-state/1'),
    clock_offset_ms: ClockOffsetSchema,
    settings: SettingsSchema,
    projects: z.array(ProjectSchema).default([]),
    batches: z.array(StateBatchSchema).default([]),
    /** v2's deliveries, response schemas and datasets. */
    v2: V2CatalogStateSchema.optional(),
    tasks: z.array(StateTaskSchema),
    files: StateFilesSchema.default([]),
    ...teamStateFields,
    quality_tasks: z.array(QualityTaskSchema).default([]),
    /** The callback journal (GET /_mock/callbacks), pending deliveries included. */
    callbacks: CallbackJournalSchema.shape.deliveries.default([]),
    /** Pending work on the tenant's clock (delayed completions, callback attempts), in due order. */
    scheduled_jobs: z.array(ScheduledJobSchema).default([]),
  })
  .strict();
export type State = z.infer<typeof StateSchema>;
