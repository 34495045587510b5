import {
  FaultIdParamsSchema,
  FaultListSchema,
  FaultRuleRequestSchema,
  FaultRuleSchema,
  FaultsClearedSchema,
  INJECTABLE_STATUSES,
  MAX_FAULT_RULES,
} from '../domain/faults/schemas.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import type { Services } from '../services/context.js';
import { addFaultRule, clearFaultRules, listFaultRules, removeFaultRule } from '../services/faults.js';

const RULES_DESCRIPTION =
  "Fault rules act on the caller's tenant's /v1 requests only (never on /_mock). They are tried in creation " +
  'order; the first that matches (method, path), has firings left (times) and whose draw succeeds ' +
  '(probability, from its own generator seeded by seed) fires: the request waits delay_ms (real time), then is ' +
  'answered with the error status (the standard body; 429 and 503 with Retry-After: 1), dropped (reset) or left ' +
  'without an answer (hang), before its route runs, so it changes no state. A request with the Labelmock-Fault ' +
  `header is faulted by the header instead. At most ${MAX_FAULT_RULES} rules per tenant; POST /_mock/reset ` +
  `removes them. Statuses: ${INJECTABLE_STATUSES.join(', ')}.`;

/** The /_mock/faults routes: the tenant's fault and latency rules. */
export function faultControlRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/_mock/faults',
      tag: 'Control',
      summary: "Add a fault rule for the tenant's /v1 requests: an error status, a delay, a reset or a hang",
      description: RULES_DESCRIPTION,
      body: FaultRuleRequestSchema,
      response: FaultRuleSchema,
      errors: [],
      handler: ({ tenant, body }) => addFaultRule(tenant, body, services.ids, services.interfaceRoutes),
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/faults',
      tag: 'Control',
      summary: "List the tenant's fault rules, in the order they are tried, with how often each fired",
      description: RULES_DESCRIPTION,
      response: FaultListSchema,
      errors: [],
      handler: ({ tenant }) => ({ faults: listFaultRules(tenant) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/_mock/faults/{faultId}',
      tag: 'Control',
      summary: 'Remove one fault rule; answers it as it was (with its fired count)',
      description:
        'Removes the rule from the tenant; requests it matched are served again. Answers the rule as it was, ' +
        'with how often it fired.',
      params: FaultIdParamsSchema,
      response: FaultRuleSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => removeFaultRule(tenant, params.faultId),
    }),
    defineRoute({
      method: 'delete',
      path: '/_mock/faults',
      tag: 'Control',
      summary: 'Remove every fault rule of the tenant; answers how many went',
      description: "Removes all of the tenant's fault rules (POST /_mock/reset does too); answers how many went.",
      response: FaultsClearedSchema,
      errors: [],
      handler: ({ tenant }) => ({ deleted: clearFaultRules(tenant) }),
    }),
  ];
}
