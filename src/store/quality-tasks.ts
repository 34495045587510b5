import type { QualityTask } from '../domain/quality/quality-tasks.js';

/** A tenant's evaluation and training tasks, by id: their ids are what training attempts refer to. */
export class QualityTaskLog {
  private readonly byId = new Map<string, QualityTask>();

  add(task: QualityTask): void {
    this.byId.set(task.id, task);
  }

  get(id: string): QualityTask | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  all(): QualityTask[] {
    return [...this.byId.values()];
  }
}
