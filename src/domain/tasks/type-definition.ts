import type { ZodTypeAny } from 'zod';
import type { Rng } from '../../synth/random.js';
import type { FitIssue } from './annotation-fit.js';
import type { Task } from './task.js';

/** What a creation rule may look up beyond the request: other tasks of the same tenant. */
export interface CreateContext {
  findTask(taskId: string): Task | undefined;
}

/** Everything the mock knows about one task type. One file per type under types/. */
export interface TaskTypeDefinition {
  type: string;
  summary: string;
  /** The whole creation body: common parameters plus the type's own. */
  createSchema: ZodTypeAny;
  /** Shape of `response` once the task is completed. */
  responseSchema: ZodTypeAny;
  /** Stem of the OpenAPI component names (`<stem>CreateRequest`, `<stem>Response`). */
  schemaName: string;
  /** Values the service adds to `params` when the request leaves them out (e.g. attachment_type). */
  paramDefaults?: Record<string, unknown>;
  /** Rules that need more than the request (e.g. lidar_task must name a completed lidar task). */
  checkCreate?(params: Record<string, unknown>, context: CreateContext): FitIssue[];
  /** Fields shown on the task object besides `params` (textcollection shows attachments and fields). */
  taskFields?(params: Record<string, unknown>): Record<string, unknown>;
  /** Checks a parsed response against what this task asked for. */
  checkResponse(task: Task, response: Record<string, unknown>): FitIssue[];
  /** A valid response built from the task's own params, the same for the same task id. */
  synthesize(task: Task, rng: Rng): Record<string, unknown>;
}
