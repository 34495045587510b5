import type { z } from 'zod';
import type { RecordAttemptsBodySchema, TrainingAttempt } from '../domain/quality/schemas.js';
import { invalidCombination } from '../errors/index.js';
import { toIso } from '../runtime/clock.js';
import { mergeDescending, type SeqIndex } from '../store/seq-index.js';
import { emailKey } from '../store/team.js';
import type { Tenant } from '../store/tenant.js';
import { DEFAULT_PAGE_SIZE, filtersOf, pageStart, takePage } from './seq-page.js';

export interface TrainingAttemptQuery {
  quality_task_ids?: string[];
  labeler_emails?: string[];
  next_token?: string;
  limit?: number;
}

/** Newest-first seqs carrying any of `keys` in `index`, below `maxSeq`. */
const anyOf = (index: SeqIndex, keys: string[], maxSeq: number) =>
  mergeDescending(keys.map((key) => index.descending(key, maxSeq)));

/**
 * Training attempts, newest first, matching any listed quality task and any listed labeler (both
 * lists when both are given). Walks the smaller index, so a page costs the page, not the log.
 */
export function listTrainingAttempts(tenant: Tenant, query: TrainingAttemptQuery) {
  const ids = query.quality_task_ids ?? [];
  const emails = (query.labeler_emails ?? []).map(emailKey);
  if (ids.length === 0 && emails.length === 0) {
    throw invalidCombination('"quality_task_ids" or "labeler_emails" is required (give at least one)');
  }
  const log = tenant.training;
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const maxSeq = pageStart('training_attempts', query.next_token, log.lastSeq, 'next_token', filtersOf(query));
  const idSet = new Set(ids);
  const emailSet = new Set(emails);
  const byIds = ids.length > 0 && (emails.length === 0 || ids.length <= emails.length);
  const stream = byIds ? anyOf(log.byQualityTask, ids, maxSeq) : anyOf(log.byLabeler, emails, maxSeq);
  const matches = (attempt: TrainingAttempt) =>
    (idSet.size === 0 || idSet.has(attempt.quality_task_id)) &&
    (emailSet.size === 0 || emailSet.has(emailKey(attempt.labeler_email)));
  const page = takePage('training_attempts', stream, limit, (seq) => log.atSeq(seq), matches, filtersOf(query));
  return { docs: page.records, limit, has_more: page.next !== null, next_token: page.next };
}

/** Records attempts (the control plane's stand-in for labelers doing quality tasks). */
export function recordTrainingAttempts(
  tenant: Tenant,
  attempts: z.infer<typeof RecordAttemptsBodySchema>['attempts'],
): number {
  for (const attempt of attempts) {
    tenant.training.add({ ...attempt, created_at: attempt.created_at ?? toIso(tenant.stamp()) });
  }
  return tenant.training.lastSeq;
}
