import type { Context, MiddlewareHandler } from 'hono';
import type { EventBus } from '../services/events.js';
import { recordRequest } from '../services/request-journal.js';
import type { JournalBudget, JournalRecord } from '../store/request-journal.js';
import type { Store } from '../store/store.js';
import { type Tenant, tenantKey } from '../store/tenant.js';
import { extractKey } from './auth.js';
import type { AppEnv, Principal } from './env.js';
import { type CapturedBody, capturedBody, clonedAnswer } from './journal-bodies.js';
import {
  capturedHeaders,
  capturedPath,
  capturedQuery,
  notedAnswer,
  type QueryCaptures,
  queryCaptures,
} from './journal-capture.js';

export interface JournalOptions {
  store: Store;
  events: EventBus;
  resolveKey: (key: string) => Principal | undefined;
  /** --journal-size: entries a tenant's ring keeps. */
  capacity: number;
  /** --max-journal-bytes: what all tenants' journals hold together. */
  budget: JournalBudget;
}

const isControl = (path: string) => path === '/_mock' || path.startsWith('/_mock/');
const isInterface = (path: string) =>
  path === '/v1' || path.startsWith('/v1/') || path === '/v2' || path.startsWith('/v2/');

/**
 * Journals each `/v1` and `/v2` request, and each unmatched one (404 or 405 outside the control plane), of a
 * valid key into its tenant's request journal (GET /_mock/requests). Mounted right after the request
 * log, so it also sees what auth, the 405 check, body limits and faults answered.
 *
 * Only a tenant the store still holds once the request is done is journaled, one that holds
 * something (a task, a setting, a rule): a new key that only reads leaves no tenant behind, and a
 * flood of requests with random keys allocates nothing. The journal itself keeps no tenant: it goes
 * with one that holds nothing else (vacancy.ts). `/_mock` calls are never journaled: a test reading
 * the journal would otherwise find its own reads.
 */
export function requestJournal(options: JournalOptions): MiddlewareHandler<AppEnv> {
  const queries = queryCaptures();
  return async (c, next) => {
    const path = c.req.path;
    if (isControl(path)) return next();
    const started = performance.now();
    await next();
    if (!isInterface(path) && c.res.status !== 404 && c.res.status !== 405) return;
    const principal = principalOf(c, options.resolveKey);
    if (!principal) return;
    const tenant = options.store.findTenant(tenantKey(principal.account, principal.mode));
    if (tenant) await journal(c, tenant, started, options, queries);
  };
}

async function journal(
  c: Context<AppEnv>,
  tenant: Tenant,
  started: number,
  options: JournalOptions,
  queries: QueryCaptures,
): Promise<void> {
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  const timeMs = tenant.now();
  const happening = tenant.nextHappening();
  const read = capturedBody(c);
  const entry = capture(c, { timeMs, happening }, durationMs, read instanceof Promise ? await read : read, queries);
  if (entry.response === undefined && !entry.responseCut) await addClonedAnswer(c, entry);
  recordRequest(tenant, entry, options.capacity, options.events, options.budget);
}

/** Set by auth for `/v1`; an unmatched route never ran auth, so its key is read here (never a 401). */
function principalOf(c: Context<AppEnv>, resolveKey: (key: string) => Principal | undefined): Principal | undefined {
  const principal: Principal | undefined = c.get('principal');
  if (principal) return principal;
  const key = extractKey(c.req.header('authorization'));
  return key === undefined ? undefined : resolveKey(key);
}

/** Every field present, in one order: all entries share one shape. */
function capture(
  c: Context<AppEnv>,
  { timeMs, happening }: { timeMs: number; happening: number },
  durationMs: number,
  body: CapturedBody,
  queries: QueryCaptures,
): JournalRecord {
  const path = capturedPath(c.req.path);
  const query = capturedQuery(c, queries);
  const headers = capturedHeaders(c);
  const answer = notedAnswer(c);
  const responseCut = answer?.cut ?? false;
  return {
    seq: 0,
    timeMs,
    happening,
    method: c.req.method,
    path: path.value,
    query: query.value,
    headers: headers.value,
    body: body.text,
    parts: body.parts,
    status: c.res.status,
    response: answer?.value,
    durationMs,
    bodyCut: body.cut,
    responseCut,
    truncated: path.cut || query.cut || headers.cut || body.cut || responseCut,
    fault: c.get('fault'),
    warning: c.get('warning'),
  };
}

/** An answer the route did not make (an error, a fault): read from a clone of the Response. */
async function addClonedAnswer(c: Context<AppEnv>, entry: JournalRecord): Promise<void> {
  const answer = await clonedAnswer(c.res);
  entry.response = answer.value;
  entry.responseCut = answer.cut;
  entry.truncated ||= answer.cut;
}
