import { checkIsoTimestamp } from '../domain/common/stored-values.js';
import type { State } from '../domain/state/schema.js';
import { findTaskType } from '../domain/tasks/registry.js';
import { invalidParameter } from '../errors/index.js';

type StateTask = State['tasks'][number]['task'];

const TIMESTAMPS = ['created_at', 'updated_at', 'completed_at'] as const;

/**
 * What an imported task must hold beyond its shape, checked item by item as the import's list is parsed: a
 * type the mock knows, params of that type (a completion synthesizes a response from them), dates that parse.
 * `at` is the task's place in the import (`tasks[3].task`).
 */
export function checkImportedTask(task: StateTask, at: string): void {
  for (const field of TIMESTAMPS) checkIsoTimestamp(task[field], `${at}.${field}`);
  for (const [index, audit] of task.audits.entries()) {
    checkIsoTimestamp(audit.audited_at, `${at}.audits[${index}].audited_at`);
  }
  const def = findTaskType(task.type);
  if (!def) throw invalidParameter(`${at}.type`, `"${task.type.slice(0, 40)}" is not a task type this server knows`);
  // The params as a creation of that type would hold them: the keys the type takes (a default it adds, such
  // as with_labels, is not one of them) and the instruction, which the task keeps beside its params.
  const taken = Object.entries(task.params).filter(([key]) => def.takes(key));
  const asCreated = {
    ...Object.fromEntries(taken),
    ...(task.instruction !== undefined && { instruction: task.instruction }),
  };
  const parsed = def.createSchema.safeParse(asCreated);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `.${issue.path.join('.')}` : '';
    throw invalidParameter(`${at}.params${where}`, `does not fit type ${def.type}: ${issue?.message ?? 'invalid'}`);
  }
}

/** Each task names only projects and batches the import itself carries (so of the key's own mode). */
export function checkTaskReferences(state: State): void {
  const projects = new Set(state.projects.map((project) => project.name));
  const batches = new Set(state.batches.map((batch) => batch.name));
  state.tasks.forEach(({ task }, index) => {
    if (task.project !== undefined && !projects.has(task.project))
      throw invalidParameter(
        `tasks[${index}].task.project`,
        `names "${task.project}", which is not among the imported projects`,
      );
    if (task.batch !== undefined && !batches.has(task.batch))
      throw invalidParameter(
        `tasks[${index}].task.batch`,
        `names "${task.batch}", which is not among the imported batches`,
      );
  });
}
