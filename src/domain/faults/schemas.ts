import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { refinePathPattern } from './path-pattern.js';

/**
 * The statuses a fault rule or the Labelmock-Fault header may inject: those every /v1 operation documents
 * (routeErrors in http/route.ts adds them), so an injected answer never breaks the OpenAPI document.
 */
export const INJECTABLE_STATUSES = [400, 401, 429, 500, 502, 503, 504] as const;
export type InjectableStatus = (typeof INJECTABLE_STATUSES)[number];
/** Statuses whose injected answer carries `Retry-After` (in seconds). */
export const RETRY_AFTER_STATUSES: readonly number[] = [429, 503];
export const INJECTED_RETRY_AFTER_S = 1;

/** Rules one tenant may hold: matching walks them all, so the count bounds the cost of a request. */
export const MAX_FAULT_RULES = 100;
/** The longest delay a rule, the header or --latency may add (real time). */
export const MAX_FAULT_DELAY_MS = 60_000;
const FAULT_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const CONNECTION_FAULTS = ['reset', 'hang'] as const;
/** When a fault strikes: before the route (nothing happens) or after it (`commit`: applied, answer lost). */
export const FAULT_MOMENTS = ['commit'] as const;

export const isInjectableStatus = (status: number): status is InjectableStatus =>
  (INJECTABLE_STATUSES as readonly number[]).includes(status);

const STATUS_RULE = `must be one of ${INJECTABLE_STATUSES.join(', ')} (the statuses every /v1 and /v2 operation lists)`;
const StatusSchema = z
  .number()
  .int()
  .refine(isInjectableStatus, STATUS_RULE)
  .describe(`The error status to answer: one of ${INJECTABLE_STATUSES.join(', ')}. 429 and 503 carry Retry-After: 1.`);
const DelaySchema = z.number().int().min(0).max(MAX_FAULT_DELAY_MS);

/**
 * What the fault middleware did to one request (a rule's or the Labelmock-Fault header's fault, or the global
 * latency), set on the context as `fault` so the request journal can record it.
 */
export const AppliedFaultSchema = z
  .object({
    rule_id: z.string().optional().describe('The rule that fired; absent for the header and the global latency.'),
    status: z.number().int().optional().describe('The injected error status, when the request got one.'),
    delay_ms: z.number().int().optional().describe('The delay added before the request went on or was answered.'),
    fault: z
      .enum(CONNECTION_FAULTS)
      .optional()
      .describe('A connection fault: reset drops the socket, hang never answers.'),
    after: z
      .enum(FAULT_MOMENTS)
      .optional()
      .describe('The request was applied first (after: commit); its own answer was replaced by the fault.'),
    committed_status: z
      .number()
      .int()
      .optional()
      .describe('With after: commit, the status the applied request answered before the fault replaced it.'),
    client_gone: z
      .literal(true)
      .optional()
      .describe('The client had left when the delay ended: the request was dropped before its route ran.'),
  })
  .strict();
export type AppliedFault = z.infer<typeof AppliedFaultSchema>;

/** Any letter case, as the request journal's filter takes it; stored and answered in upper case. */
const anyCase = (word: string) => [...word].map((c) => `[${c}${c.toLowerCase()}]`).join('');
const FaultMethodSchema = extendApi(
  z.preprocess((value) => (typeof value === 'string' ? value.toUpperCase() : value), z.enum(FAULT_METHODS)),
  {
    type: 'string',
    // The generated enum (upper case only) would refuse what the server takes: a pattern instead.
    enum: undefined,
    pattern: `^(${FAULT_METHODS.map(anyCase).join('|')})$`,
    description: 'Only requests of this method (any letter case; stored upper case); any when absent.',
  },
);

const RuleFields = {
  method: FaultMethodSchema.optional(),
  path: z
    .string()
    .min(4)
    .max(500)
    .refine(
      (path) => path.startsWith('/v1/') || path.startsWith('/v2/'),
      'must start with /v1/ or /v2/ (faults apply to the interface only)',
    )
    .superRefine(refinePathPattern)
    .describe(
      'The request path it applies to: a literal path (/v1/tasks), a route template (/v1/task/{taskId}: one ' +
        'segment per parameter) or a glob (* within one segment; ** as a whole segment, for any number of ' +
        'segments: /v1/task/*, /v1/**). ' +
        'The query string is not matched.',
    ),
  status: StatusSchema.optional(),
  error: z.string().min(1).max(1000).optional().describe('The error message; by default it names the rule.'),
  delay_ms: DelaySchema.optional().describe(`Real-time delay before answering or going on, 0-${MAX_FAULT_DELAY_MS}.`),
  probability: z.number().min(0).max(1).describe('Chance that a matching request is faulted (0-1).'),
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .describe('Seeds the generator the probability is drawn from: the same seed gives the same sequence.'),
  times: z.number().int().min(1).max(1_000_000).optional().describe('How often the rule fires at most.'),
  fault: z
    .enum(CONNECTION_FAULTS)
    .optional()
    .describe('reset: the connection is dropped; hang: no answer until the client gives up.'),
  after: z
    .enum(FAULT_MOMENTS)
    .optional()
    .describe(
      'commit: the request is applied first (its task created, its Idempotency-Key spent), then its answer is ' +
        'replaced by the status or lost by the connection fault: a lost answer, as a retrying client meets it. ' +
        'Absent: the fault strikes before the route, and nothing happens.',
    ),
};

export const FaultRuleRequestSchema = z
  .object({ ...RuleFields, probability: RuleFields.probability.default(1), seed: RuleFields.seed.optional() })
  .strict()
  .describe(
    'A fault rule: matching /v1 and /v2 requests of the tenant are delayed, answered with an error, dropped or ' +
      'left hanging, before the route runs or (after: commit) once it has applied the request. At least one of ' +
      'status, delay_ms and fault; status and fault exclude each other; after needs status or fault.',
  );
export type FaultRuleRequest = z.infer<typeof FaultRuleRequestSchema>;

export const FaultRuleSchema = z
  .object({
    id: z.string(),
    ...RuleFields,
    remaining: z.number().int().min(0).optional().describe('Firings left, for a rule given times.'),
    fired: z.number().int().min(0).describe('How often the rule fired so far.'),
  })
  .strict()
  .describe('A fault rule as held: its id, the seed drawn when none was given, and how often it fired.');
export type FaultRule = z.infer<typeof FaultRuleSchema>;

export const FaultListSchema = z
  .object({ faults: z.array(FaultRuleSchema) })
  .strict()
  .describe("The tenant's fault rules, in the order they are tried.");

export const FaultIdParamsSchema = z.object({ faultId: z.string() });

export const FaultsClearedSchema = z.object({ deleted: z.number().int().min(0) }).strict();
