/**
 * Deliberately broken variants of the server for scripts/mutants.ts. Each breaks exactly one rule a client can
 * observe (of the interface unless its `tag` says the v2 API's or labelmock's reading of recordings), with
 * one text patch of one file under src/. `find` must occur exactly once in the file: a patch that
 * no longer applies (src/ moved on) fails the run loudly instead of silently testing nothing.
 */
export interface Mutant {
  name: string;
  /** The rule the patch breaks, as a client would notice it. */
  rule: string;
  /** Path under src/. */
  file: string;
  find: string;
  replace: string;
  /**
   * Whose rule it breaks: the interface's (the default), the official clients' v2 API (`client`), what the real
   * service was recorded or seen doing (`recorded`), or labelmock's reading where the evidence is silent
   * (`labelmock`, docs/fidelity.md). A mutant is detected when a contract of that tag fails.
   */
  tag?: 'client' | 'recorded' | 'labelmock';
}

export const MUTANTS: readonly Mutant[] = [
  // The v2 API (client): the batch life cycle, limits, the thread models, metadata merge.
  {
    name: 'v2-cancel-completed-allowed',
    rule: 'a completed batch cannot be cancelled (POST /v2/batch/cancel is a 400)',
    file: 'domain/batches/life-cycle.ts',
    find: "from: ['staging', 'in_progress', 'paused'],",
    replace: "from: ['staging', 'in_progress', 'paused', 'completed'],",
    tag: 'client',
  },
  {
    name: 'v2-limit-unchecked',
    rule: 'a v2 list takes limit 1 to 100 (the client declares ge=1, le=100)',
    file: 'routes/v2/query-fields.ts',
    find: 'limit: queryInt(1, 100)',
    replace: 'limit: queryInt(0, 1000)',
    tag: 'client',
  },
  {
    name: 'v2-turn-without-annotations',
    rule: "a turn carries its annotations (the client's Turn model requires them)",
    file: 'synth/threads.ts',
    find: '          annotations: [accepted],\n',
    replace: '',
    tag: 'client',
  },
  {
    name: 'v2-batch-metadata-merge-ignored',
    rule: 'POST /v2/batch/metadata with merge: true keeps the keys it does not name',
    file: 'services/v2/batches.ts',
    find: 'writeBatchMetadata(tenant, record, body.metadata, body.merge);',
    replace: 'writeBatchMetadata(tenant, record, body.metadata);',
    tag: 'client',
  },
  // Task creation: validation.
  {
    name: 'create-priority-range',
    rule: 'a task priority is 10, 20 or 30 (15 is refused)',
    file: 'domain/common/values.ts',
    find: '(v) => v === 10 || v === 20 || v === 30',
    replace: '(v) => v >= 10 && v <= 30',
  },
  {
    name: 'create-video-file-refused',
    rule: 'a videoannotation task with attachment_type video and one video URL is valid',
    file: 'domain/tasks/types/videoannotation.ts',
    find: "if ((body.attachment_type ?? 'image') === 'image') checkImageFrames(body, report);",
    replace: 'if (body) checkImageFrames(body, report);',
  },
  {
    name: 'create-conditions-refused',
    rule: 'annotation_attributes may carry conditions (label_condition, attribute_conditions)',
    file: 'domain/tasks/attributes.ts',
    find: '.superRefine((attr, ctx) => {',
    replace: ".superRefine((attr, ctx) => {\n    if (attr.conditions) reportInto(ctx)(['conditions'], 'unsupported');",
  },
  {
    name: 'create-context-equals-attachment',
    rule: 'a context_attachment must not equal the task attachment',
    file: 'domain/tasks/types/imageannotation.ts',
    find: 'if (entry.attachment === body.attachment)',
    replace: 'if (entry.attachment === body.attachment && !entry)',
  },
  // Limits.
  {
    name: 'limit-tags-6',
    rule: 'a task has at most 5 tags',
    file: 'domain/common/input-limits.ts',
    find: 'export const MAX_TAGS = 5;',
    replace: 'export const MAX_TAGS = 6;',
  },
  {
    name: 'limit-metadata-20kb',
    rule: 'task metadata is at most 10 KB',
    file: 'domain/common/input-limits.ts',
    find: 'export const METADATA_MAX_BYTES = 10 * 1024;',
    replace: 'export const METADATA_MAX_BYTES = 20 * 1024;',
  },
  // unique_id.
  {
    name: 'uid-per-project',
    rule: 'unique_id is unique across all projects of the account, not per project',
    file: 'services/tasks.ts',
    find: 'if (common.unique_id !== undefined) assertUniqueIdFree(tenant, common.unique_id);',
    replace:
      'if (common.unique_id !== undefined && taskWithUniqueId(tenant, common.unique_id)?.task.project === ' +
      'common.project) assertUniqueIdFree(tenant, common.unique_id);',
  },
  {
    name: 'uid-set-no-conflict',
    rule: 'setting a unique_id another task holds answers 409',
    file: 'services/tasks.ts',
    find: 'assertUniqueIdFree(tenant, uniqueId, taskId);',
    replace: '',
  },
  {
    name: 'uid-cancel-clear-ignored',
    rule: 'cancel with clear_unique_id=true frees the unique_id',
    file: 'services/task-cancel.ts',
    find: 'if (clearUniqueId) delete task.unique_id;',
    replace: '',
  },
  // Idempotency-Key.
  {
    name: 'idem-replay-reruns',
    rule: 'a repeated Idempotency-Key request replays the stored answer and creates no task',
    file: 'http/idempotency.ts',
    find: "if (existing.state === 'in_flight') throw idempotencyInFlight(key);",
    replace:
      "if (existing.state === 'in_flight') throw idempotencyInFlight(key);\n      if (existing) return handler();",
  },
  {
    name: 'idem-params-ignored',
    rule: 'a stored Idempotency-Key with other parameters answers 409',
    file: 'http/idempotency.ts',
    find: "if (existing.fingerprint !== digest) throw idempotencyKeyReused(key, 'with different parameters');",
    replace: '',
  },
  {
    name: 'idem-other-user',
    rule: 'a stored Idempotency-Key sent by another user answers 409',
    file: 'http/idempotency.ts',
    find: "if (existing.tenantKey !== tenant.key) throw idempotencyKeyReused(key, 'by a different user');",
    replace: '',
  },
  {
    name: 'idem-errors-not-stored',
    rule: 'an error answer to an Idempotency-Key request is stored and replayed too',
    file: 'http/idempotency.ts',
    find: "if (apiError.kind === 'internal') {",
    replace: 'if (apiError.kind) {',
  },
  // Task list: paging and filters.
  {
    name: 'page-has-more-boundary',
    rule: 'has_more is false when the page ends exactly at the last task',
    file: 'services/task-list.ts',
    find: 'if (page.length === limit) {\n      hasMore = true;\n      break;\n    }\n    page.push(record);',
    replace: 'page.push(record);\n    if (page.length === limit) {\n      hasMore = true;\n      break;\n    }',
  },
  {
    name: 'page-token-overlap',
    rule: 'the page after next_token starts after the last task of the previous page',
    file: 'services/task-list.ts',
    find: "encodeSeqToken('tasks', { seq: last.seq,",
    replace: "encodeSeqToken('tasks', { seq: last.seq + 1,",
  },
  {
    name: 'filter-status-ignored',
    rule: 'GET /v1/tasks?status= lists only tasks of that status',
    file: 'services/task-list.ts',
    find: "  'status',\n  'type',",
    replace: "  'type',",
  },
  {
    name: 'filter-start-time-exclusive',
    rule: 'start_time is the minimum created_at, inclusive',
    file: 'services/task-list.ts',
    find: 'tasks.firstSeqCreatedFrom(filter.start_time)',
    replace: 'tasks.firstSeqCreatedFrom(filter.start_time + 1)',
  },
  {
    name: 'filter-completed-ignored',
    rule: 'completed_after / completed_before bound completed_at',
    file: 'services/task-list.ts',
    find: "{ field: 'completed_at', after: 'completed_after', before: 'completed_before' },",
    replace: '',
  },
  {
    name: 'filter-limited-response-ignored',
    rule: 'limited_response=true answers only task_id, status, metadata and project',
    file: 'services/task-list.ts',
    find: 'filter.limited_response ? Buffer.from(JSON.stringify(limitedView(record.task))) : taskJson(record),',
    replace: 'taskJson(record),',
  },
  // Task maintenance: tags, metadata, updated_at, audits, dependents.
  {
    name: 'tags-add-duplicates',
    rule: 'adding a tag the task already has leaves it once',
    file: 'services/tasks.ts',
    find: 'dedupe([...current, ...tags])',
    replace: '[...current, ...tags]',
  },
  {
    name: 'set-metadata-merges',
    rule: 'setMetadata replaces the metadata',
    file: 'services/tasks.ts',
    find: 'task.metadata = metadata;',
    replace: 'task.metadata = { ...task.metadata, ...metadata };',
  },
  {
    name: 'updated-at-frozen',
    rule: 'updated_at moves when the task changes',
    file: 'services/tasks.ts',
    find: '    task.updated_at = toIso(tenant.stamp());\n',
    replace: '',
  },
  {
    name: 'audit-reject-as-accepted',
    rule: 'an audit with accepted false sets customer_review_status rejected',
    file: 'services/audits.ts',
    find: "const result = accepted ? 'accepted' : 'rejected';",
    replace: "const result = accepted ? 'accepted' : 'accepted';",
  },
  {
    name: 'dependents-options-after-finish',
    rule: 'dependent options can be changed only while the root task is unfinished',
    file: 'services/dependents.ts',
    find: "if (record.task.status !== 'pending')",
    replace: "if (record.task.status === 'never')",
  },
  {
    name: 'callback-alias-ignored',
    rule: '`callback` is an alias of callback_url on task creation',
    file: 'services/tasks.ts',
    find: 'const callbackUrl = common.callback_url ?? common.callback;',
    replace: 'const callbackUrl = common.callback_url;',
  },
  {
    name: 'cb-audit-no-callback',
    rule: 'an audit change sends a callback',
    file: 'services/callbacks.ts',
    find: "  task_audited: 'audit',\n",
    replace: '',
  },
  // Lists beyond paging by token.
  {
    name: 'filter-project-ignored',
    rule: 'GET /v1/tasks?project= lists only tasks of that project',
    file: 'services/task-list.ts',
    find: "  'project',\n  'batch',",
    replace: "  'batch',",
  },
  {
    name: 'batches-has-more-boundary',
    rule: 'GET /v1/batches answers has_more false on its last page',
    file: 'services/batch-list.ts',
    find: 'has_more: offset + docs.length < total',
    replace: 'has_more: offset + docs.length <= total',
  },
  {
    name: 'batches-project-filter-ignored',
    rule: 'GET /v1/batches?project= lists only batches of that project',
    file: 'services/batch-list.ts',
    find: 'filter.project !== undefined',
    replace: "filter.project === 'never'",
  },
  // Projects: setParams and versions.
  {
    name: 'params-patch-deep-merge',
    rule: 'setParams patch replaces each given field whole (objects are not merged)',
    file: 'services/projects.ts',
    find: '      ...base,\n      ...params,',
    replace:
      '      ...base,\n      ...Object.fromEntries(Object.entries(params).map(([k, v]) => ' +
      '[k, v && typeof v === "object" && !Array.isArray(v) && typeof base[k] === "object" ' +
      '? { ...(base[k] as object), ...v } : v])),',
  },
  {
    name: 'params-patch-ignored',
    rule: 'setParams with patch true keeps the latest parameters the request leaves out',
    file: 'services/projects.ts',
    find: 'const base = patch === true && latest ?',
    replace: 'const base = patch === 0 && latest ?',
  },
  {
    name: 'params-version-ignored',
    rule: 'a task created with project_version gets that version, not the latest',
    file: 'services/task-inheritance.ts',
    find: ': project.param_history.find((e) => e.version === requested)',
    replace: ': project.param_history[project.param_history.length - 1]',
  },
  {
    name: 'params-project-wins',
    rule: 'task-level parameters override the project defaults',
    file: 'services/task-inheritance.ts',
    find: '      ...defaults,\n      ...body,',
    replace: '      ...body,\n      ...defaults,',
  },
  {
    name: 'params-instruction-not-joined',
    rule: "a task's instruction is its own followed by the project's",
    file: 'services/task-inheritance.ts',
    find: 'const instruction = joinInstructions(body.instruction, defaults.instruction);',
    replace: 'const instruction = (body.instruction ?? defaults.instruction) as string | undefined;',
  },
  // Batches.
  {
    name: 'batch-finalize-noop',
    rule: 'finalize moves a staging batch (rapid or studio project) to in_progress',
    file: 'domain/batches/life-cycle.ts',
    find: "finalize: { from: ['staging'],",
    replace: 'finalize: { from: [],',
  },
  {
    name: 'batch-staging-does-not-hold',
    rule: 'a staging batch holds its tasks automatic completions until it is finalized',
    file: 'services/completion.ts',
    find: "batch.batch.status === 'staging' || ",
    replace: "batch.batch.status === 'never' || ",
    // The v2 docs say it ("once finalized ... task processing will begin"); the interface does not.
    tag: 'client',
  },
  // What real clients send that no route declares.
  {
    name: 'unknown-params-never-lenient',
    rule: 'a parameter no route declares is accepted and ignored by default, named in Labelmock-Warning',
    file: 'http/lenience.ts',
    find: "new Lenience(c.get('tenant').settings.unknown_params === 'lenient')",
    replace: "new Lenience(c.get('tenant').settings.unknown_params === 'never')",
    // What recorded clients send (docs/fidelity.md): labelmock's reading of the real service, tagged so.
    tag: 'labelmock',
  },
  {
    name: 'query-empty-values-kept',
    rule: 'an empty query value means absent (the Ruby client sends unset filters bare)',
    file: 'http/query-parser.ts',
    find: "const given = sent.filter((value) => value !== '');",
    replace: 'const given = sent;',
    // The Ruby gem's cassettes: the real service read the bare keys so (a `recorded` contract).
    tag: 'recorded',
  },
  {
    name: 'form-text-not-read',
    rule: 'a form-encoded body is read with its text as the numbers and booleans the schema asks for',
    file: 'domain/lenience.ts',
    find: "if (issue.code === 'invalid_type' && lenience.formStrings && issue.received === 'string') {",
    replace: "if (issue.code === 'invalid_type' && false && issue.received === 'string') {",
    // The 2018 docs' curl examples sent forms (a `recorded` contract).
    tag: 'recorded',
  },
  {
    name: 'batch-status-canceled-as-error',
    rule: 'GET /v1/batches/{name}/status counts tasks by their own status',
    file: 'services/batch-status.ts',
    find: "    error: count('error'),\n    canceled: count('canceled'),",
    replace: "    error: count('error') + count('canceled'),\n    canceled: 0,",
  },
  // Callbacks.
  {
    name: 'cb-no-retry',
    rule: 'a callback not answered 2xx is retried',
    file: 'services/callbacks.ts',
    find: 'if (ok || n >= max_attempts) {',
    replace: 'if (ok || n >= 1) {',
  },
  {
    name: 'cb-no-auth-header',
    rule: 'callbacks carry the scale-callback-auth header',
    file: 'services/callbacks.ts',
    find: "headers: { 'content-type': 'application/json', 'scale-callback-auth': tenant.settings.callback_auth_key },",
    replace: "headers: { 'content-type': 'application/json' },",
  },
  {
    name: 'cb-error-said-completed',
    rule: 'the callback of a task that ended in error has status error',
    file: 'services/callbacks.ts',
    find: '      status: task.status,\n',
    replace: "      status: 'completed',\n",
  },
  {
    name: 'cb-only-200',
    rule: 'any 2xx answer to a callback is success',
    file: 'domain/callbacks/schemas.ts',
    find: 'statusCode >= 200 && statusCode < 300',
    replace: 'statusCode === 200',
  },
  // Cancel.
  {
    name: 'cancel-completed-ok',
    rule: 'cancel of a completed task answers 400',
    file: 'domain/tasks/life-cycle.ts',
    find: "cancel: { from: ['pending'], to: 'canceled'",
    replace: "cancel: { from: ['pending', 'completed'], to: 'canceled'",
  },
  {
    name: 'cancel-repeat-400',
    rule: 'a repeated cancel of a canceled task answers 200',
    file: 'domain/tasks/life-cycle.ts',
    find: 'repeatable: true',
    replace: 'repeatable: false',
  },
  // Test and live keys.
  {
    name: 'live-project-test-key',
    rule: 'a test key cannot use a project created with a live key',
    file: 'services/account-objects.ts',
    find: 'if (!tenant.owns(record)) {',
    replace: "if (!tenant.owns(record) && kind === 'batch') {",
  },
  {
    name: 'live-batch-test-key',
    rule: 'a test key cannot use a batch created with a live key',
    file: 'services/account-objects.ts',
    find: 'if (!tenant.owns(record)) {',
    replace: "if (!tenant.owns(record) && kind === 'project') {",
  },
  {
    name: 'is-test-always-true',
    rule: 'is_test is false for tasks made with a live key',
    file: 'services/tasks.ts',
    find: "is_test: tenant.mode === 'test',",
    replace: 'is_test: true,',
  },
  // Files.
  {
    name: 'file-reference-id-reuse',
    rule: 'a file upload reusing a reference_id answers 409',
    file: 'services/files.ts',
    find: "if (holder) throw alreadyHeld('file', 'reference_id', input.reference_id, holder.file.id);",
    replace: '',
  },
  {
    name: 'file-url-refused',
    rule: "an uploaded file's attachment_url is accepted as a task attachment",
    file: 'services/file-attachments.ts',
    find: 'return account === tenant.account && id !== undefined && tenant.files.get(id) !== undefined;',
    replace: 'return !account && !id;',
  },
  // Teams.
  {
    name: 'team-set-role-noop',
    rule: 'POST /v1/teams/set_role changes the role of the teammates named',
    file: 'services/team.ts',
    find: '    member.role = role;\n',
    replace: '',
  },
  {
    name: 'team-invitee-shows-future-role',
    rule: 'an invited teammate has role invited until the invitation is accepted',
    file: 'services/team.ts',
    find: '    role: member.role,\n',
    replace: "    role: member.role === 'invited' ? (member.invitedRole ?? member.role) : member.role,\n",
  },
  // Label descriptions and results.
  {
    name: 'label-object-without-choice',
    rule: 'a LabelDescription object requires choice',
    file: 'domain/common/labels.ts',
    find: '      choice: LabelNameSchema,\n',
    replace: '      choice: LabelNameSchema.optional(),\n',
  },
  {
    name: 'ner-text-not-quoted',
    rule: "a named entity annotation's text is text[start:end] of the task text",
    file: 'synth/text-ner.ts',
    find: '    text: word[0],\n',
    replace: '    text: word[0].toLowerCase(),\n',
  },
  // Error statuses.
  {
    name: 'err-task-not-found-400',
    rule: 'an unknown task id answers 404',
    file: 'errors/templates.ts',
    find: "export const taskNotFound = () => new ApiError('not_found',",
    replace: "export const taskNotFound = () => new ApiError('invalid_request',",
  },
  {
    name: 'err-name-conflict-400',
    rule: 'a project or batch name already used answers 409',
    file: 'errors/templates.ts',
    find: "alreadyExists = (kind: string, name: string, scope: string) =>\n  new ApiError('conflict',",
    replace: "alreadyExists = (kind: string, name: string, scope: string) =>\n  new ApiError('invalid_request',",
  },
];
