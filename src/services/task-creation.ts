import type { Lenience } from '../domain/lenience.js';
import type { TaskTypeDefinition } from '../domain/tasks/type-definition.js';
import { parseOrThrow } from '../domain/validate.js';
import type { TaskRecord } from '../store/task-collection.js';
import type { Tenant } from '../store/tenant.js';
import { applyCompletionMode } from './completion.js';
import type { Services } from './context.js';
import { checkFileAttachments } from './file-attachments.js';
import { resolveCreation } from './task-inheritance.js';
import { createTask, viewTask } from './tasks.js';

/**
 * The whole creation pipeline, shared by the creation routes and dependent tasks: project and
 * batch defaults merged in, the type's schema checked on the result, the task stored, and the
 * tenant's completion mode applied. Answers the task as created (pending).
 */
export function createFromRequest(
  services: Services,
  tenant: Tenant,
  def: TaskTypeDefinition,
  body: Record<string, unknown>,
  lenience?: Lenience,
) {
  const resolved = resolveCreation(tenant, def, body);
  const valid = parseOrThrow(def.createSchema, resolved.body, '', lenience);
  checkFileAttachments(tenant, valid);
  const record: TaskRecord = createTask(tenant, services.ids, def, valid, resolved.projectParamVersion);
  // The answer shows the task pending even in completion mode immediate, which completes it right after: the
  // official Node SDK's own test asserts exactly that ('test task retrieval', scaleapi 2.3.2 test/test_client.js).
  // The 2019 recordings show test-key creations answered already completed (scaleapi/scaleapi-ruby@e6354d9):
  // the real service completed them about 50 ms after creation, racing its own answer. docs/fidelity.md.
  const created = viewTask(record);
  applyCompletionMode(tenant, services.scheduler, record);
  return { record, created };
}
