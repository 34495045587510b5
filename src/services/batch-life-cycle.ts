import { BATCH_MOVES, type BatchMove, batchStateOf, moveAllowed } from '../domain/batches/life-cycle.js';
import { wrongState } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import type { BatchRecord } from '../store/account.js';
import type { Store } from '../store/store.js';
import { batchStatusKey } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { syncBatchStatus } from './batch-status.js';
import { releaseHeld } from './completion.js';
import { cancelTask } from './tasks.js';

/**
 * The moves of the batch life cycle (domain/batches/life-cycle.ts) carried out, for v1 and v2 alike. Each move
 * changes the record, the face's answer is made, and only then runs the work the move lets go (held completions
 * run after the answer: it says in_progress, the next read may say completed, as the service begins processing
 * once a batch is finalized or resumed).
 */

/** What a refused move answers: v2's 400, or v1 finalize's batch as it is. */
export type WhenRefused = 'refuse' | 'answer-as-is';

interface MoveEffect {
  /** Before the answer: the record's new state. */
  apply(store: Store, tenant: Tenant, record: BatchRecord): void;
  /** After the answer: the work the move lets go. */
  after?(tenant: Tenant, record: BatchRecord): void;
}

const runHeld = (tenant: Tenant, record: BatchRecord) => {
  releaseHeld(tenant, record);
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
    apply: (store, tenant, record) => {
      tenant.shared.changeBatch(record, (batch) => {
        batch.hold = 'cancelled';
        delete batch.deferred;
      });
      cancelPendingTasks(store.ownerOf(tenant, record) ?? tenant, record);
      tenant.shared.batches.setStatus(record, 'completed');
      tenant.shared.changeBatch(record, ({ batch }) => {
        batch.completed_at ??= toIso(tenant.stamp());
      });
    },
  },
};

/** Cancels each pending task of the batch as v1's cancel does: an event, no callback. */
function cancelPendingTasks(owner: Tenant, record: BatchRecord): void {
  const pendingKey = batchStatusKey(record.batch.name, 'pending');
  for (const seq of [...owner.tasks.index('batch_status').descending(pendingKey, Infinity)]) {
    const task = owner.tasks.atSeq(seq);
    if (task) cancelTask(owner, task.task.task_id, false);
  }
}

/** Carries out `move` on the batch and returns `answer()`, made between the move and the work it lets go. */
export function moveBatch<T>(
  store: Store,
  tenant: Tenant,
  record: BatchRecord,
  move: BatchMove,
  answer: () => T,
  whenRefused: WhenRefused,
): T {
  const state = batchStateOf(record);
  if (!moveAllowed(move, state)) {
    if (whenRefused === 'answer-as-is') return answer();
    throw wrongState(`Batch "${record.batch.name}"`, `is ${state}`, BATCH_MOVES[move].rule);
  }
  const effect = EFFECTS[move];
  effect.apply(store, tenant, record);
  const answered = answer();
  effect.after?.(tenant, record);
  return answered;
}
