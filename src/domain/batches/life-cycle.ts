import type { z } from 'zod';
import type { BatchStatusSchema } from './schemas.js';

/**
 * The one batch life cycle, v1's and v2's. A batch's state is v1's status, or the hold v2 adds: v1 shows a
 * paused batch as in_progress (its work is not done) and a cancelled one as completed (no work is left).
 *
 *   created ──> staging                     (v1: a rapid or Studio project's batch; v2: staging_batch)
 *   created ──> in_progress                 (every other batch)
 *   staging ──finalize──> in_progress
 *   in_progress ──pause──> paused ──resume──> in_progress
 *   staging | in_progress | paused ──cancel──> cancelled   (its pending tasks are canceled)
 *   in_progress <──> completed              (automatic: no pending task left / a task joins or is redone)
 *
 * The moves a client asks for are the table below; the automatic ones are services/batch-status.ts
 * `syncBatchStatus`. What a refused move answers is the face's choice (services/batch-life-cycle.ts).
 */

/** The status v1 stores and shows. */
type StoredStatus = z.infer<typeof BatchStatusSchema>;
type Hold = 'paused' | 'cancelled';
export type BatchState = StoredStatus | Hold;
export type BatchMove = 'finalize' | 'pause' | 'resume' | 'cancel';

export interface BatchMoveRule {
  readonly from: readonly BatchState[];
  readonly to: BatchState;
  /** The rule a refused move's 400 states. */
  readonly rule: string;
}

export const BATCH_MOVES: Readonly<Record<BatchMove, BatchMoveRule>> = {
  finalize: { from: ['staging'], to: 'in_progress', rule: 'only staging batches can be finalized' },
  pause: { from: ['in_progress'], to: 'paused', rule: 'only in_progress batches can be paused' },
  resume: { from: ['paused'], to: 'in_progress', rule: 'only paused batches can be resumed' },
  cancel: {
    from: ['staging', 'in_progress', 'paused'],
    to: 'cancelled',
    rule: 'completed and cancelled batches cannot be cancelled',
  },
};

/** A batch's state: its hold while it has one, else its stored status. */
export const batchStateOf = (record: { readonly batch: { readonly status: StoredStatus }; readonly hold?: Hold }) =>
  record.hold ?? record.batch.status;

export const moveAllowed = (move: BatchMove, state: BatchState): boolean => BATCH_MOVES[move].from.includes(state);
