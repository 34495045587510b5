import type { Task } from '../domain/tasks/task.js';
import { optionalFixture } from '../fixtures.js';

/**
 * Examples built from fixtures/tasks (made by the mock itself: see scripts/fixture-tasks.ts), read
 * when a document is built, never when an app is.
 */
const completedTaskExample = (type: string) => optionalFixture<Task>(`tasks/${type}.completed.json`);

/**
 * What creating the type's fixture answers: its completed fixture before completion (the fixture
 * was created, then completed 95 minutes later; nothing else changed in between).
 */
export function pendingTaskExample(type: string): Task | undefined {
  const done = completedTaskExample(type);
  if (!done) return undefined;
  const { response: _r, completed_at: _c, ...task } = done;
  return { ...task, status: 'pending', updated_at: task.created_at };
}

/** The `response` of the type's completed fixture. */
export const responseExample = (type: string) => completedTaskExample(type)?.response;

/** Request/response pairs per operation (`POST /v1/batches`), recorded by scripts/examples/scenario.ts. */
export type OperationExamples = Record<string, { request?: unknown; response?: unknown }>;

export const EXAMPLES_FIXTURE = 'examples/operations.json';

export const recordedExamples = () => optionalFixture<OperationExamples>(EXAMPLES_FIXTURE) ?? {};
