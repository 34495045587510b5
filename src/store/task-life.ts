import { MAX_LIFE_ENTRIES } from '../domain/control/timeline.js';
import type { Task } from '../domain/tasks/task.js';

/**
 * What happened to a task after its creation, in order: the task's own fields keep only the latest
 * completion, so a redo and the completions before it would be lost. Kept on the record in memory only
 * (GET /_mock/tasks/{id}/timeline reads it); a task restored from --data-dir or imported starts from what
 * its fields still tell (`rebuilt`).
 */
export type LifeKind = 'completed' | 'redone' | 'error' | 'canceled';

export interface LifeEntry {
  readonly kind: LifeKind;
  /** On the tenant's virtual clock: the task's updated_at that the change stamped. */
  readonly ms: number;
  /** The error message, for `error`. */
  readonly error?: string;
}

export interface TaskLife {
  readonly entries: LifeEntry[];
  /** Entries let go at the front once MAX_LIFE_ENTRIES were kept: a task redone again and again stays small. */
  dropped: number;
  /** The history before a restore or import is what the task's fields told then, not what happened. */
  readonly rebuilt?: true;
}

/** Appends one change to the task's life (made on its first change: a task only created costs nothing). */
export function noteLife(holder: { life?: TaskLife }, entry: LifeEntry): void {
  // A literal, not a push onto []: most tasks change once or twice, and a first push reserves room for 17.
  if (holder.life === undefined) {
    holder.life = { entries: [entry], dropped: 0 };
    return;
  }
  const { entries } = holder.life;
  entries.push(entry);
  if (entries.length > MAX_LIFE_ENTRIES) {
    entries.shift();
    holder.life.dropped += 1;
  }
}

/**
 * The life an imported or restored task can tell from its fields: its current completion, cancel or error.
 * Undefined for a pending task never redone, whose whole life is its creation.
 */
export function rebuiltLife(task: Task): TaskLife | undefined {
  const updatedMs = Date.parse(task.updated_at);
  const entries: LifeEntry[] = [];
  if (task.status === 'completed' && task.completed_at !== undefined)
    entries.push({ kind: 'completed', ms: Date.parse(task.completed_at) });
  else if (task.status === 'canceled') entries.push({ kind: 'canceled', ms: updatedMs });
  else if (task.status === 'error')
    entries.push({ kind: 'error', ms: updatedMs, ...(task.error !== undefined && { error: task.error }) });
  else if ((task.times_redone ?? 0) === 0) return undefined;
  return { entries, dropped: 0, rebuilt: true };
}
