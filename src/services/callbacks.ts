import type { CallbackDelivery } from '../domain/callbacks/schemas.js';
import { isEmail } from '../domain/common/values.js';
import { toIso } from '../runtime/clock.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { Tenant, TenantEvent } from '../store/tenant.js';
import { batchCounts } from './batches.js';
import type { Scheduler } from './scheduler.js';
import { viewTask } from './tasks.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const TASK_EVENTS = { task_completed: 'completed', task_error: 'error', task_audited: 'audit' } as const;

/**
 * Virtual-clock time of attempt `n` (1-based) after the first: exponential backoff whose retries
 * together span 24 hours times retry_scale, as the real service spreads its 20 attempts over a day.
 */
export function retryOffsetMs(n: number, maxAttempts: number, retryScale: number): number {
  if (n <= 1 || maxAttempts <= 1) return 0;
  const unit = (DAY_MS * retryScale) / (2 ** (maxAttempts - 1) - 1);
  return Math.round(unit * (2 ** (n - 1) - 1));
}

/**
 * Sends callbacks: journals each one, tries it off the request path (a scheduled job, never awaited
 * by the API call that caused it), and retries failures on the tenant's virtual clock.
 */
export class CallbackDispatcher {
  constructor(
    private readonly scheduler: Scheduler,
    private readonly ids: IdGenerator,
  ) {}

  handle = (tenant: Tenant, event: TenantEvent): void => {
    if (event.kind === 'batch_completed') {
      const { batch } = event.record;
      if (!batch.callback) return;
      const body = { batch: structuredClone(batch), status: batch.status, counts: batchCounts(tenant, event.record) };
      this.enqueue(tenant, { batch: batch.name, event: 'batch_completed', target: batch.callback, body });
      return;
    }
    const record = event.record;
    const { task } = record;
    if (!task.callback_url) return;
    const body = { task_id: task.task_id, status: task.status, response: task.response ?? null, task: viewTask(record) };
    this.enqueue(tenant, { task_id: task.task_id, event: TASK_EVENTS[event.kind], target: task.callback_url, body }, (ok) => {
      // Not a task change a client made: updated_at stays as it is.
      task.callback_succeeded = ok;
      task.callback_completed = ok;
    });
  };

  private enqueue(
    tenant: Tenant,
    what: Pick<CallbackDelivery, 'task_id' | 'batch' | 'event' | 'target' | 'body'>,
    onOutcome: (ok: boolean) => void = () => {},
  ): void {
    const startMs = tenant.now();
    const delivery: CallbackDelivery = {
      id: this.ids.next(),
      ...what,
      state: 'pending',
      created_at: toIso(startMs),
      headers: { 'content-type': 'application/json', 'scale-callback-auth': tenant.settings.callback_auth_key },
      attempts: [],
    };
    tenant.callbacks.push(delivery);
    if (isEmail(what.target)) {
      // E-mail targets are journaled, never sent; the flags stay false, as no 2xx came back.
      delivery.state = 'recorded';
      return;
    }
    delivery.next_attempt_at = delivery.created_at;
    this.scheduler.schedule(tenant, startMs, () => this.attempt(tenant, delivery, 1, startMs, onOutcome));
  }

  private async attempt(tenant: Tenant, delivery: CallbackDelivery, n: number, startMs: number, onOutcome: (ok: boolean) => void) {
    const { max_attempts, retry_scale, timeout_ms } = tenant.settings.callbacks;
    const at = toIso(tenant.now());
    const began = Date.now();
    let outcome: { status_code?: number; error?: string };
    try {
      const res = await fetch(delivery.target, {
        method: 'POST',
        headers: delivery.headers,
        body: JSON.stringify(delivery.body),
        signal: AbortSignal.timeout(timeout_ms),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      outcome = { status_code: res.status };
    } catch (err) {
      outcome = { error: describeFailure(err, timeout_ms) };
    }
    delivery.attempts.push({ attempt: n, at, ...outcome, duration_ms: Date.now() - began });
    const ok = outcome.status_code !== undefined && outcome.status_code >= 200 && outcome.status_code < 300;
    if (ok || n >= max_attempts) {
      delivery.state = ok ? 'succeeded' : 'failed';
      delete delivery.next_attempt_at;
      onOutcome(ok);
      return;
    }
    const dueMs = startMs + retryOffsetMs(n + 1, max_attempts, retry_scale);
    delivery.next_attempt_at = toIso(dueMs);
    this.scheduler.schedule(tenant, dueMs, () => this.attempt(tenant, delivery, n + 1, startMs, onOutcome));
  }
}

/** fetch hides the reason in `cause` (ECONNREFUSED, a bad port, ...): surface it in the journal. */
function describeFailure(err: unknown, timeoutMs: number): string {
  if ((err as Error).name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return [cause?.code, cause?.message ?? (err as Error).message].filter(Boolean).join(': ');
}
