import { z } from 'zod';
import { CallbackJournalSchema } from '../domain/callbacks/schemas.js';
import { STATE_IMPORT_MAX_JSON_DEPTH, STATE_IMPORT_MAX_JSON_VALUES } from '../domain/common/input-limits.js';
import { applySettingsPatch } from '../domain/settings.js';
import { TaskSchema } from '../domain/tasks/task.js';
import { jsonStreamResponse } from '../http/json-stream.js';
import { queryString } from '../http/query.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { toIso } from '../runtime/clock.js';
import { reviewerAudit } from '../services/audits.js';
import { advanceClock } from '../services/clock.js';
import { completeTask, failTask, redoTask } from '../services/completion.js';
import type { Services } from '../services/context.js';
import { stateChunks } from '../services/state-stream.js';
import { taskAnswer } from '../services/tasks.js';
import { importState } from '../services/tenant-state.js';
import type { Tenant } from '../store/tenant.js';
import { fileControlRoutes } from './files.js';
import { healthRoute } from './health.js';
import {
  ClockAdvanceBodySchema,
  ClockAdvanceResultSchema,
  ClockSchema,
  CompleteBodySchema,
  FailBodySchema,
  ResetResultSchema,
  ReviewerAuditBodySchema,
  SettingsPatchSchema,
  SettingsSchema,
  StateSchema,
} from './schemas.js';
import { checkStateLists, StateEnvelopeSchema } from './state-import.js';
import { teamControlRoutes } from './teams.js';

const TaskIdParams = z.object({ taskId: z.string() });
const CallbackJournalQuerySchema = z.object({ task_id: queryString, batch: queryString });
const clockOf = (tenant: Tenant) => ({
  now: toIso(tenant.now()),
  now_ms: tenant.now(),
  offset_ms: tenant.clockOffsetMs,
});

/** The /_mock routes: drive what only the real service can do. They act on the caller's tenant only. */
export function controlRoutes(services: Services): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/complete',
      tag: 'Control',
      summary: 'Complete a pending task with a given (validated) or synthesized response',
      params: TaskIdParams,
      body: CompleteBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params, body }) => taskAnswer(completeTask(tenant, params.taskId, body.response)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/fail',
      tag: 'Control',
      summary: 'Move a pending task to error (clear_unique_id_on_error is honoured)',
      params: TaskIdParams,
      body: FailBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params, body }) => taskAnswer(failTask(tenant, params.taskId, body.error)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/redo',
      tag: 'Control',
      summary: 'Send a completed task back to pending; times_redone grows by one',
      params: TaskIdParams,
      response: TaskSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params }) => taskAnswer(redoTask(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/audit',
      tag: 'Control',
      summary: "Record an audit by the service's own reviewers: accepted, or fixed with an optional corrected response",
      params: TaskIdParams,
      body: ReviewerAuditBodySchema,
      response: TaskSchema,
      errors: ['invalid_request', 'unauthorized', 'not_found'],
      handler: ({ tenant, params, body }) =>
        taskAnswer(reviewerAudit(tenant, params.taskId, body.result, body.response, body.comments)),
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/clock',
      tag: 'Control',
      summary: "Read the tenant's virtual clock",
      response: ClockSchema,
      errors: ['unauthorized'],
      handler: ({ tenant }) => clockOf(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/clock/advance',
      tag: 'Control',
      summary: 'Move the virtual clock forward and run whatever became due (delayed completions, retries)',
      body: ClockAdvanceBodySchema,
      response: ClockAdvanceResultSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: async ({ tenant, body }) => {
        advanceClock(tenant, body.ms);
        // Awaited: what became due (a retry, a delayed completion) is done when this answers.
        const jobsRun = await services.scheduler.runDue(tenant);
        return { ...clockOf(tenant), jobs_run: jobsRun };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/callbacks',
      tag: 'Control',
      summary: 'The callback journal: every delivery with each attempt, oldest first',
      query: CallbackJournalQuerySchema,
      response: CallbackJournalSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: ({ tenant, query }) => ({
        deliveries: tenant.callbacks.filter(
          (d) =>
            (query.task_id === undefined || d.task_id === query.task_id) &&
            (query.batch === undefined || d.batch === query.batch),
        ),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/settings',
      tag: 'Control',
      summary: "Read the tenant's behaviour settings",
      response: SettingsSchema,
      errors: ['unauthorized'],
      handler: ({ tenant }) => tenant.settings,
    }),
    defineRoute({
      method: 'patch',
      path: '/_mock/settings',
      tag: 'Control',
      summary:
        'Change settings: completion mode (manual, immediate, delay with delay_ms), callback auth key, callback retries',
      body: SettingsPatchSchema,
      response: SettingsSchema,
      errors: ['invalid_request', 'unauthorized'],
      handler: ({ tenant, body }) => {
        tenant.settings = applySettingsPatch(tenant.settings, body);
        return tenant.settings;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/reset',
      tag: 'Control',
      summary: "Empty the caller's tenant (tasks, settings, clock, idempotency keys)",
      response: ResetResultSchema,
      errors: ['unauthorized'],
      handler: ({ tenant }) => {
        services.store.reset(tenant.account, tenant.mode);
        return { result: 'success' as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/state',
      tag: 'Control',
      summary: "Export the tenant's whole state as JSON",
      response: StateSchema,
      errors: ['unauthorized'],
      // Streamed: an export with large files must not hold up other tenants while it is written.
      handler: ({ tenant }) => jsonStreamResponse(stateChunks(tenant)),
    }),
    defineRoute({
      method: 'put',
      path: '/_mock/state',
      tag: 'Control',
      summary: "Replace the tenant's state with an exported one (seed data)",
      // Tasks are checked in slices after the edge (state-import.ts): thousands of them at once
      // would hold up other tenants. The document shows the whole StateSchema.
      body: StateEnvelopeSchema,
      bodyDoc: StateSchema,
      // A whole tenant at once (a seed step, not traffic): a larger values budget, and room for
      // stored metadata (itself up to the usual depth) inside the state's own nesting.
      jsonLimits: { maxValues: STATE_IMPORT_MAX_JSON_VALUES, maxDepth: STATE_IMPORT_MAX_JSON_DEPTH },
      response: StateSchema,
      errors: ['invalid_request', 'unauthorized', 'payload_too_large'],
      handler: async ({ tenant, body }) => {
        const state = await checkStateLists(body);
        return jsonStreamResponse(stateChunks(importState(services.store, tenant, state)));
      },
    }),
    ...fileControlRoutes(services),
    ...teamControlRoutes(),
    healthRoute(services),
  ];
}
