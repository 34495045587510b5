import type { Context, MiddlewareHandler, Next } from 'hono';
import type { Latency } from '../config/latency.js';
import { FAULT_HEADER, parseFaultHeader } from '../domain/faults/header.js';
import { type AppliedFault, INJECTED_RETRY_AFTER_S, RETRY_AFTER_STATUSES } from '../domain/faults/schemas.js';
import { heldRefused, injectedFault } from '../errors/index.js';
import { HeldRequests } from '../runtime/held-requests.js';
import { firingRule } from '../services/faults.js';
import type { AppEnv } from './env.js';
import { toErrorResponse } from './error-answer.js';
import { clientGone, incomingOf } from './incoming.js';

/**
 * What a connection fault answers once it ends, a placeholder no client reads: over a socket the socket is
 * gone; in process (app.request, no socket) it is what the caller gets. 499 is the status nginx logs for a
 * connection closed before the answer.
 */
const CONNECTION_FAULT_STATUS = 499;

/** One request's plan: what to add (the applied fault) and the error message a rule gave, if any. */
interface Plan {
  applied: AppliedFault;
  source: string;
  message?: string;
}

/** Timers of delays and hangs in flight, all ended at once when the app is disposed (shutdown). */
class Waits {
  private readonly pending = new Set<() => void>();
  disposed = false;

  /** Resolves true after `ms`, or false as soon as the app is disposed or `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (this.disposed || signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (full: boolean) => {
        clearTimeout(timer);
        this.pending.delete(end);
        signal?.removeEventListener('abort', end);
        resolve(full);
      };
      const end = () => done(false);
      const timer = Number.isFinite(ms) ? setTimeout(() => done(true), ms) : undefined;
      this.pending.add(end);
      signal?.addEventListener('abort', end, { once: true });
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const end of [...this.pending]) end();
  }
}

/**
 * Faults and latency for `/v1` and `/v2` requests, after auth and tenancy. A request without the header, of a
 * tenant without rules, on a server without --latency pays one header lookup and one length check. A faulted
 * request is answered here, before its route runs: it changes no state and consumes no Idempotency-Key; unless
 * the fault comes `after: commit`, when the route runs first and only its answer is lost. `latency` is
 * the global --latency: every /v1 request waits a time drawn from [minMs, maxMs].
 */
export function faultMiddleware(
  latency: Latency | undefined,
  held: HeldRequests = new HeldRequests(Number.POSITIVE_INFINITY),
): {
  middleware: MiddlewareHandler<AppEnv>;
  dispose: () => void;
} {
  const waits = new Waits();
  // The common case synchronously (no async step per request); the rest in `faulted`.
  const middleware: MiddlewareHandler<AppEnv> = (c, next) => {
    const header = c.req.header(FAULT_HEADER);
    if (header === undefined && c.get('tenant').faults.size === 0 && latency === undefined) return next();
    return faulted(c, next, header);
  };
  const faulted = async (
    c: Context<AppEnv>,
    next: Next,
    header: string | undefined,
  ): ReturnType<MiddlewareHandler<AppEnv>> => {
    const plan = planFor(c, header, latency);
    if (!plan) return next();
    c.set('fault', plan.applied);
    const { delay_ms, status, fault, after } = plan.applied;
    // Waiting holds the connection: a delay or a hang counts against the app-wide budget while it lasts.
    const taken = delay_ms || fault === 'hang' ? held.take(c.get('tenant').key) : undefined;
    if (typeof taken === 'string') throw heldRefused(taken, held.maxPerTenant, held.max);
    const release = taken;
    try {
      // A client that left during the delay may retry: going on would make its request happen twice.
      const gone = clientGone(c);
      if (delay_ms && !(await waits.wait(delay_ms, gone)) && gone.aborted) {
        plan.applied.client_gone = true;
        return new Response(null, { status: CONNECTION_FAULT_STATUS });
      }
      if (fault && after === undefined) return await connectionFault(c, fault, waits);
    } finally {
      release?.();
    }
    if (after === 'commit') return lostAnswer(c, next, plan, waits, held);
    if (status !== undefined) throw faultError(plan);
    return next();
  };
  return { middleware, dispose: () => waits.dispose() };
}

/** The header's fault, else the first rule that fires, plus the global latency; undefined when none applies. */
function planFor(c: Context<AppEnv>, header: string | undefined, latency: Latency | undefined): Plan | undefined {
  const base = latency ? latency.minMs + Math.floor(Math.random() * (latency.maxMs - latency.minMs + 1)) : 0;
  let asked: Pick<AppliedFault, 'status' | 'delay_ms' | 'fault' | 'after'> | undefined;
  let plan: Plan | undefined;
  if (header !== undefined) {
    asked = parseFaultHeader(header);
    plan = { applied: {}, source: `the ${FAULT_HEADER} header` };
  } else {
    const rule = firingRule(c.get('tenant'), c.req.method, c.req.path);
    if (rule) {
      asked = rule;
      plan = { applied: { rule_id: rule.id }, source: `rule ${rule.id}`, message: rule.error };
    }
  }
  const delay = base + (asked?.delay_ms ?? 0);
  if (!plan && delay === 0) return undefined;
  plan ??= { applied: {}, source: '--latency' };
  if (delay > 0) plan.applied.delay_ms = delay;
  if (asked?.status !== undefined) plan.applied.status = asked.status;
  if (asked?.fault !== undefined) plan.applied.fault = asked.fault;
  if (asked?.after !== undefined) plan.applied.after = asked.after;
  return plan;
}

/** The injected error of a plan with a status: 429 and 503 carry Retry-After, as a real service's would. */
function faultError(plan: Plan) {
  const status = plan.applied.status ?? 500;
  const retryAfter = RETRY_AFTER_STATUSES.includes(status) ? INJECTED_RETRY_AFTER_S : undefined;
  return injectedFault(status, plan.source, plan.message, retryAfter);
}

/**
 * `after: commit`: the route applies the request (its task made, its Idempotency-Key spent), then its answer
 * is replaced by the injected status or lost with the connection. What the route answered stays in the journal
 * as committed_status.
 */
async function lostAnswer(c: Context<AppEnv>, next: Next, plan: Plan, waits: Waits, held: HeldRequests) {
  await next();
  plan.applied.committed_status = c.res.status;
  const { fault } = plan.applied;
  // Unset first: Hono merges a replaced response's headers (the committed answer's Content-Length among them).
  const replaced = fault ? await heldConnectionFault(c, fault, waits, held) : toErrorResponse(faultError(plan), c);
  c.res = undefined;
  c.res = replaced;
}

/** A connection fault after the route ran: a hang holds its slot of the held-request budget while it lasts. */
async function heldConnectionFault(
  c: Context<AppEnv>,
  fault: 'reset' | 'hang',
  waits: Waits,
  held: HeldRequests,
): Promise<Response> {
  if (fault === 'reset') return connectionFault(c, fault, waits);
  const release = held.take(c.get('tenant').key);
  if (typeof release === 'string') return toErrorResponse(heldRefused(release, held.maxPerTenant, held.max), c);
  try {
    return await connectionFault(c, fault, waits);
  } finally {
    release();
  }
}

/** `reset` drops the connection now; `hang` waits until the client gives up (or the app is disposed). */
async function connectionFault(c: Context<AppEnv>, fault: 'reset' | 'hang', waits: Waits): Promise<Response> {
  if (fault === 'hang') await waits.wait(Number.POSITIVE_INFINITY, clientGone(c));
  // A hang ended by shutdown drops its connection too, so it holds up nothing; one the client left is gone.
  if (fault === 'reset' || waits.disposed) socketOf(c)?.resetAndDestroy();
  return new Response(null, { status: CONNECTION_FAULT_STATUS });
}

/** The request's socket when served by @hono/node-server (its bindings carry the IncomingMessage). */
const socketOf = (c: Context<AppEnv>) => incomingOf(c)?.socket;
