import type { ZodError, ZodType, ZodTypeAny, ZodTypeDef } from 'zod';
import type { Rng } from '../../runtime/random.js';
import type { FitIssue } from './annotation-fit.js';
import type { Task } from './task.js';

/** What a creation rule may look up beyond the request: other tasks of the same tenant. */
export interface CreateContext {
  findTask(taskId: string): Task | undefined;
}

/** A dependent task as its root's dependents/options define it: its type and its own params. */
export interface DependentRequest {
  type: string;
  params: Record<string, unknown>;
}

/** A given response judged against its task: malformed (not the type's shape), unfit, or fitting. */
export type ResponseVerdict =
  | { kind: 'malformed'; error: ZodError }
  | { kind: 'unfit'; issues: FitIssue[] }
  | { kind: 'fits'; response: Record<string, unknown> };

/**
 * Everything the mock knows about one task type, as the registry and the services see it: params
 * and responses as plain records. Each type is written once, typed, with `defineTaskType`
 * (define-task-type.ts), which builds this view by parsing before it calls the typed functions.
 */
export interface TaskTypeDefinition {
  type: string;
  summary: string;
  /** The whole creation body: common parameters plus the type's own. */
  createSchema: ZodType<Record<string, unknown>, ZodTypeDef, unknown>;
  /** Shape of `response` once the task is completed. */
  responseSchema: ZodTypeAny;
  /** Stem of the OpenAPI component names (`<stem>CreateRequest`, `<stem>Response`). */
  schemaName: string;
  /** Values the service adds to `params` when the request leaves them out (e.g. attachment_type). */
  paramDefaults?: Record<string, unknown>;
  /** The instruction a task gets when its creation names none (audio transcription's, recorded). */
  defaultInstruction?: string;
  /**
   * The real service delivers this type's results as a file: the response clients read is
   * `{annotations: {url}}` (ResultFileLinkSchema), and the file holds what `responseSchema` describes.
   */
  resultsByFile?: boolean;
  /**
   * A chat type: its projects take chat tasks (POST /v2/task/chat) and have task templates, as text collection
   * projects do (the official Python client's docs). Declared here once, read by both.
   */
  chat?: true;
  /**
   * Rules that need more than the request (e.g. lidar_task must name a completed lidar task). `params`
   * (here and in taskFields) are a creation's params as `createSchema` answered them, split from the body.
   */
  checkCreate(params: Record<string, unknown>, context: CreateContext): FitIssue[];
  /** Fields shown on the task object besides `params` (textcollection shows attachments and fields). */
  taskFields(params: Record<string, unknown>): Record<string, unknown>;
  /** Parses a given response and checks it against what the task asked for; paths start at `response`. */
  judgeResponse(task: Task, given: unknown): ResponseVerdict;
  /** The issues of `judgeResponse` as one list (a malformed response's zod issues included). */
  checkResponse(task: Task, given: unknown): FitIssue[];
  /** A valid response built from the task's own params, the same for the same task id. */
  synthesize(task: Task, rng: Rng): Record<string, unknown>;
  /** Whether a creation body of this type takes `key` (a dependent inherits only what its type takes). */
  takes(key: string): boolean;
  /** What this task, as a root, passes on to a dependent: its data item, and whatever its type adds. */
  offerToDependent(root: Task, dependent: DependentRequest): Record<string, unknown>;
}
