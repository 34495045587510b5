import { z } from 'zod';
import { STATE_IMPORT_MAX_JSON_DEPTH, STATE_IMPORT_MAX_JSON_VALUES } from '../domain/common/input-limits.js';
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
} from '../domain/control/schemas.js';
import { TaskSchema } from '../domain/tasks/task.js';
import { jsonStreamResponse } from '../http/json-stream.js';
import { defineRoute, type RouteSpec } from '../http/route.js';
import { toIso } from '../runtime/clock.js';
import { reviewerAudit } from '../services/audits.js';
import { advanceClockAndRunDue } from '../services/clock.js';
import { completeTask, failTask, redoTask, startWork } from '../services/completion.js';
import type { Services } from '../services/context.js';
import { patchSettings } from '../services/settings.js';
import { stateChunks } from '../services/state-stream.js';
import { taskAnswer } from '../services/tasks.js';
import { importState, resetTenant } from '../services/tenant-state.js';
import type { Tenant } from '../store/tenant.js';
import { callbackJournalRoute } from './callbacks.js';
import { eventRoutes } from './events.js';
import { faultControlRoutes } from './faults.js';
import { fileControlRoutes } from './files.js';
import { healthRoute } from './health.js';
import { metricsRoute } from './metrics.js';
import { requestJournalRoutes } from './requests.js';
import { resultRoutes } from './results.js';
import { checkStateLists, StateEnvelopeSchema } from './state-import.js';
import { taskLookRoutes } from './task-look.js';
import { teamControlRoutes } from './teams.js';
import { tlsRoutes } from './tls.js';
import { v2ControlRoutes } from './v2.js';
import { waitRoutes } from './wait.js';
import { warningRoutes } from './warnings.js';

const TaskIdParams = z.object({ taskId: z.string() });
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
      description:
        "Completes a pending task as the service's labelers would. A given `response` is checked against the task " +
        "type's response shape and the task's own params; without one, a response is synthesized from the params " +
        '(the same for the same task id). Callback, dependents and batch progress follow.',
      params: TaskIdParams,
      body: CompleteBodySchema,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, body }) =>
        taskAnswer(completeTask(tenant, params.taskId, body.response, body.threads)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/fail',
      tag: 'Control',
      summary: 'Move a pending task to error (clear_unique_id_on_error is honoured)',
      description:
        'Moves a pending task to status error with the given message (or a default one); its callback is sent, ' +
        'and its unique_id is removed when the task asked for it (clear_unique_id_on_error).',
      params: TaskIdParams,
      body: FailBodySchema,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, body }) => taskAnswer(failTask(tenant, params.taskId, body.error, body.type)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/start',
      tag: 'Control',
      summary: 'Mark a pending task as begun by a labeler (work_started: true)',
      description:
        'Sets work_started on a pending task, as the service does once a labeler opens it. A paused v2 batch holds ' +
        'only unstarted tasks: a started task completes when its completion mode says, paused or not.',
      params: TaskIdParams,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => taskAnswer(startWork(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/redo',
      tag: 'Control',
      summary: 'Send a completed task back to pending; times_redone grows by one',
      description:
        'Sends a completed task back to pending, as a redo by the service does; its review status goes back to ' +
        'pending.',
      params: TaskIdParams,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params }) => taskAnswer(redoTask(tenant, params.taskId)),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/tasks/{taskId}/audit',
      tag: 'Control',
      summary: "Record an audit by the service's own reviewers: accepted, or fixed with an optional corrected response",
      description:
        "Adds an audit by the service's reviewers to a completed task: accepted, or fixed with a corrected " +
        "`response` (checked like a completion's). customer_review_status follows.",
      params: TaskIdParams,
      body: ReviewerAuditBodySchema,
      response: TaskSchema,
      errors: ['not_found'],
      handler: ({ tenant, params, body }) =>
        taskAnswer(reviewerAudit(tenant, params.taskId, body.result, body.response, body.comments)),
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/clock',
      tag: 'Control',
      summary: "Read the tenant's virtual clock",
      description:
        'The virtual clock stamps tasks and drives delayed completions, callback retries and idempotency expiry.',
      response: ClockSchema,
      errors: [],
      handler: ({ tenant }) => clockOf(tenant),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/clock/advance',
      tag: 'Control',
      summary: 'Move the virtual clock forward and run whatever became due (delayed completions, retries)',
      description:
        "Moves the tenant's clock forward by `ms` and runs the scheduled work that became due, in order; answers " +
        'the clock and how many jobs ran.',
      body: ClockAdvanceBodySchema,
      response: ClockAdvanceResultSchema,
      errors: [],
      handler: async ({ tenant, body }) => {
        // Awaited: what became due (a retry, a delayed completion) is done when this answers.
        const jobsRun = await advanceClockAndRunDue(services.scheduler, tenant, body.ms);
        return { ...clockOf(tenant), jobs_run: jobsRun };
      },
    }),
    callbackJournalRoute(),
    ...taskLookRoutes(),
    defineRoute({
      method: 'get',
      path: '/_mock/settings',
      tag: 'Control',
      summary: "Read the tenant's behaviour settings",
      description: "Answers the tenant's settings: completion mode, callback auth key, callback retries.",
      response: SettingsSchema,
      errors: [],
      handler: ({ tenant }) => tenant.settings,
    }),
    defineRoute({
      method: 'patch',
      path: '/_mock/settings',
      tag: 'Control',
      summary:
        'Change settings: completion mode (manual, immediate, delay with delay_ms), ' +
        'callback auth key, callback retries',
      description:
        "Merges the given settings into the tenant's and answers them all. Completion mode manual waits for " +
        '/_mock/tasks/{taskId}/complete; immediate completes at creation; delay completes after delay_ms.',
      body: SettingsPatchSchema,
      response: SettingsSchema,
      errors: [],
      handler: ({ tenant, body }) => patchSettings(tenant, body),
    }),
    defineRoute({
      method: 'post',
      path: '/_mock/reset',
      tag: 'Control',
      summary: "Empty the caller's tenant (tasks, settings, clock, idempotency keys)",
      description: 'Removes everything the tenant holds; other tenants (keys) are untouched.',
      response: ResetResultSchema,
      errors: [],
      handler: ({ tenant }) => {
        resetTenant(services.store, tenant);
        return { result: 'success' as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/_mock/state',
      tag: 'Control',
      summary: "Export the tenant's whole state as JSON",
      description:
        "Answers the tenant's whole state (tasks, projects, batches, files, team, settings, clock, scheduled " +
        'work, the callback journal), for PUT /_mock/state to load again.',
      response: StateSchema,
      errors: [],
      // Streamed: an export with large files must not hold up other tenants while it is written.
      streamed: true,
      handler: ({ tenant }) => jsonStreamResponse(stateChunks(tenant)),
    }),
    defineRoute({
      method: 'put',
      path: '/_mock/state',
      tag: 'Control',
      summary: "Replace the tenant's state with an exported one (seed data)",
      description:
        "Replaces the tenant's state with one GET /_mock/state answered (seed data); answers the state as loaded.",
      // Tasks are checked in slices after the edge (state-import.ts): thousands of them at once
      // would hold up other tenants. The document shows the whole StateSchema.
      body: StateEnvelopeSchema,
      bodyDoc: StateSchema,
      // A whole tenant at once (a seed step, not traffic): a larger values budget, and room for
      // stored metadata (itself up to the usual depth) inside the state's own nesting.
      jsonLimits: { maxValues: STATE_IMPORT_MAX_JSON_VALUES, maxDepth: STATE_IMPORT_MAX_JSON_DEPTH },
      response: StateSchema,
      errors: ['payload_too_large'],
      streamed: true,
      handler: async ({ tenant, body }) => {
        const state = await checkStateLists(body);
        return jsonStreamResponse(stateChunks(importState(services.store, tenant, state, services.scheduler)));
      },
    }),
    ...fileControlRoutes(services),
    ...requestJournalRoutes(),
    ...eventRoutes(services.events),
    ...waitRoutes(services.events),
    ...warningRoutes(),
    ...tlsRoutes(services),
    ...resultRoutes(services),
    ...faultControlRoutes(services),
    ...teamControlRoutes(),
    ...v2ControlRoutes(services),
    healthRoute(services),
    metricsRoute(services.metrics),
  ];
}
