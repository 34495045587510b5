import { overlapsTemplate, pathMatcher } from '../domain/faults/path-pattern.js';
import { drawSeed, seededRandom } from '../domain/faults/random.js';
import { type FaultRule, type FaultRuleRequest, MAX_FAULT_RULES } from '../domain/faults/schemas.js';
import { invalidCombination, invalidParameter, notFound, wrongState } from '../errors/index.js';
import type { IdGenerator } from '../runtime/ids.js';
import type { Tenant } from '../store/tenant.js';

/** `POST /_mock/faults`: checks the rule's fields together, then holds it after the tenant's other rules. */
export function addFaultRule(
  tenant: Tenant,
  request: FaultRuleRequest,
  ids: IdGenerator,
  /** The served /v1 and /v2 operations: a rule that matches none of them would never fire. */
  routes: readonly { method: string; path: string }[],
): FaultRule {
  if (request.status === undefined && request.delay_ms === undefined && request.fault === undefined)
    throw invalidCombination('a fault rule needs at least one of "status", "delay_ms" and "fault"');
  if (request.status !== undefined && request.fault !== undefined)
    throw invalidCombination('"status" and "fault" exclude each other: a dropped connection has no status');
  if (request.after !== undefined && request.status === undefined && request.fault === undefined)
    throw invalidParameter('after', 'needs "status" or "fault": what replaces the answer of the applied request');
  if (request.error !== undefined && request.status === undefined)
    throw invalidParameter('error', 'needs "status": only an injected error answer carries a message');
  const method = request.method?.toLowerCase();
  if (!routes.some((r) => (method === undefined || r.method === method) && overlapsTemplate(request.path, r.path))) {
    const which = request.method === undefined ? 'route' : `${request.method} route`;
    throw invalidParameter(
      'path',
      `matches no ${which} of /v1 or /v2, so the rule would never fire ` +
        '(e.g. /v1/tasks, /v1/task/{taskId}, /v1/batches/*, /v2/**)',
    );
  }
  if (tenant.faults.size >= MAX_FAULT_RULES)
    throw wrongState('This tenant', `holds ${MAX_FAULT_RULES} fault rules`, 'DELETE /_mock/faults to make room');
  const seed = request.seed ?? drawSeed();
  const rule: FaultRule = {
    id: ids.next(),
    ...request,
    seed,
    ...(request.times !== undefined && { remaining: request.times }),
    fired: 0,
  };
  tenant.faults.add({ rule, matchesPath: pathMatcher(rule.path), draw: seededRandom(seed) });
  return { ...rule };
}

export const listFaultRules = (tenant: Tenant): FaultRule[] => tenant.faults.all().map(({ rule }) => ({ ...rule }));

export function removeFaultRule(tenant: Tenant, id: string): FaultRule {
  const record = tenant.faults.remove(id);
  if (!record) throw notFound('Fault rule', id);
  return { ...record.rule };
}

export const clearFaultRules = (tenant: Tenant): number => tenant.faults.clear();

/**
 * The rule that fires for a request, counted as fired: the first matching rule, in creation order, with
 * firings left whose draw succeeds. A rule draws only for the requests it matches, so its sequence depends
 * on its seed and those requests alone. A probability of 1 (the default) fires without drawing.
 */
export function firingRule(tenant: Tenant, method: string, path: string): FaultRule | undefined {
  for (const { rule, matchesPath, draw } of tenant.faults.all()) {
    if (rule.remaining === 0 || (rule.method !== undefined && rule.method !== method) || !matchesPath(path)) continue;
    if (rule.probability < 1 && !(draw() < rule.probability)) continue;
    rule.fired += 1;
    if (rule.remaining !== undefined) rule.remaining -= 1;
    return rule;
  }
  return undefined;
}
