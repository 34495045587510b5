import { expect } from 'vitest';
import { TASK_TYPES } from '../src/domain/tasks/registry.js';
import type { Task } from '../src/domain/tasks/task.js';

/** A task's response must pass its type's response shape and the type's fit check against the task. */
export function expectResponseFits(task: Task, response: unknown = task.response): void {
  const def = TASK_TYPES[task.type];
  if (!def) throw new Error(`unknown task type ${task.type}`);
  const parsed = def.responseSchema.safeParse(response);
  expect(parsed.success, parsed.success ? '' : parsed.error.message).toBe(true);
  expect(def.checkResponse(task, parsed.data)).toEqual([]);
}
