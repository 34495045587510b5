import { BATCH_MOVES, type BatchMove, batchStateOf, moveAllowed } from '../domain/batches/life-cycle.js';
import { wrongState } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { eachInSlices } from '../runtime/slices.js';
import type { BatchRecord } from '../store/account.js';
import type { Store } from '../store/store.js';
import { batchStatusKey } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { syncBatchStatus } from './batch-status.js';
import { releaseHeld } from './completion.js';
import { cancelTask } from './task-cancel.js';

/**
 * The moves of the batch life cycle (domain/batches/life-cycle.ts) carried out, for v1 and v2 alike. Each move
 * changes the record, the face's answer is made, and only then runs the work the move lets go (held completions
 * run after the answer: it says in_progress, the next read may say completed, as the service begins processing
 * once a batch is finalized or resumed).
 */

/** What a refused move answers: v2's 400, or v1 finalize's batch as it is. */
export type WhenRefused = 'refuse' | 'answer-as-is';

/**
 * A move's work on the batch's tasks is done in slices (runtime/slices.ts): a cancel or resume of a batch of
 * thousands lets other requests run between slices. The request answers once all of it is done.
 */
interface MoveEffect {
  /** Before the answer: the record's new state. */
  apply(store: Store, tenant: Tenant, record: BatchRecord): void | Promise<void>;
  /** After the answer is made: the work the move lets go. */
  after?(tenant: Tenant, record: BatchRecord): Promise<void>;
}

const runHeld = async (tenant: Tenant, record: BatchRecord) => {
  await releaseHeld(tenant, record);
  syncBatchStatus(tenant, record);
};

const EFFECTS: Readonly<Record<BatchMove, MoveEffect>> = {
  finalize: {
    apply: (_store, tenant, record) => {
      tenant.shared.batches.setStatus(record, 'in_progress');
      // A batch whose tasks were all finished already (by the control plane) completes at once.
      syncBatchStatus(tenant, record);
    },
    after: runHeld,
  },
  pause: {
    apply: (_store, tenant, record) => {
      tenant.shared.changeBatch(record, (batch) => {
        batch.hold = 'paused';
      });
    },
  },
  resume: {
    apply: (_store, tenant, record) => {
      tenant.shared.changeBatch(record, (batch) => {
        delete batch.hold;
      });
    },
    after: runHeld,
  },
  cancel: {
    apply: async (store, tenant, record) => {
      tenant.shared.changeBatch(record, (batch) => {
        batch.hold = 'cancelled';
        delete batch.deferred;
      });
      await cancelPendingTasks(store.ownerOf(tenant, record) ?? tenant, record);
      tenant.shared.batches.setStatus(record, 'completed');
      tenant.shared.changeBatch(record, ({ batch }) => {
        batch.completed_at ??= toIso(tenant.stamp());
      });
    },
  },
};

/**
 * Cancels each pending task of the batch as v1's cancel does: an event, no callback. A task finished between
 * slices (a completion that came due) stays as it finished.
 */
async function cancelPendingTasks(owner: Tenant, record: BatchRecord): Promise<void> {
  const pendingKey = batchStatusKey(record.batch.name, 'pending');
  await eachInSlices([...owner.tasks.index('batch_status').descending(pendingKey, Infinity)], (seq) => {
    const task = owner.tasks.atSeq(seq);
    if (task?.task.status === 'pending') cancelTask(owner, task.task.task_id, false);
  });
}

/** Carries out `move` on the batch and answers `answer()`, made between the move and the work it lets go. */
export async function moveBatch<T>(
  store: Store,
  tenant: Tenant,
  record: BatchRecord,
  move: BatchMove,
  answer: () => T,
  whenRefused: WhenRefused,
): Promise<T> {
  const state = batchStateOf(record);
  if (!moveAllowed(move, state)) {
    if (whenRefused === 'answer-as-is') return answer();
    throw wrongState(`Batch "${record.batch.name}"`, `is ${state}`, BATCH_MOVES[move].rule);
  }
  const effect = EFFECTS[move];
  await effect.apply(store, tenant, record);
  const answered = answer();
  await effect.after?.(tenant, record);
  return answered;
}
