import type { TrainingAttempt } from '../domain/quality/schemas.js';
import { SeqIndex } from './seq-index.js';
import { emailKey } from './team.js';

/** Training attempts of one tenant, in the order recorded, indexed by labeler and by quality task. */
export class TrainingAttemptLog {
  private readonly attempts: TrainingAttempt[] = [];
  readonly byLabeler = new SeqIndex();
  readonly byQualityTask = new SeqIndex();

  /** Seqs start at 1: seq n is the n-th attempt recorded. */
  add(attempt: TrainingAttempt): void {
    this.attempts.push(attempt);
    const seq = this.attempts.length;
    this.byLabeler.add(emailKey(attempt.labeler_email), seq);
    this.byQualityTask.add(attempt.quality_task_id, seq);
  }

  atSeq(seq: number): TrainingAttempt | undefined {
    return this.attempts[seq - 1];
  }

  get lastSeq(): number {
    return this.attempts.length;
  }

  all(): readonly TrainingAttempt[] {
    return this.attempts;
  }
}
