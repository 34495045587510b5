import type { ZodType, ZodTypeDef } from 'zod';
import { invalidParameters } from '../../errors/index.js';
import type { Rng } from '../../runtime/random.js';
import { innerObject } from '../projects/params.js';
import { paramsSchemaOf } from './create-body.js';
import { collectIssues, type Report } from './report.js';
import type { Task } from './task.js';
import type { CreateContext, DependentRequest, ResponseVerdict, TaskTypeDefinition } from './type-definition.js';

/** A root task as a dependent's inheritance hook sees it: typed params, and its response once completed. */
export interface RootTask<P, R> {
  taskId: string;
  params: P;
  response: R | undefined;
}

/** One task type, typed: every function gets the params as `params` parses them, responses as `response` does. */
export interface TaskTypeSpec<P, R extends Record<string, unknown>> {
  type: string;
  summary: string;
  schemaName: string;
  /** The whole creation body (see createBodySchema); what is not common ends up in `params`. */
  createSchema: ZodType<Record<string, unknown>, ZodTypeDef, unknown>;
  /** What a task's `params` hold, parsed again as stored (defaults added) before each function gets them. */
  params: ZodType<P, ZodTypeDef, unknown>;
  response: ZodType<R, ZodTypeDef, unknown>;
  /** Params the server fills when the creation leaves them out (the real service's, as recorded). */
  paramDefaults?: Record<string, unknown>;
  defaultInstruction?: string;
  /** Results delivered as a file the response links (see TaskTypeDefinition.resultsByFile). */
  resultsByFile?: boolean;
  /** A chat type (see TaskTypeDefinition.chat). */
  chat?: true;
  checkCreate?(params: P, context: CreateContext, report: Report): void;
  taskFields?(params: P): Record<string, unknown>;
  /** Report paths start at `response`. */
  checkResponse(params: P, response: R, report: Report): void;
  /** Deterministic: `rng` is seeded with the task id. */
  synthesize(params: P, rng: Rng, taskId: string): R;
  /** What a dependent gets from a root of this type besides the shared data item (see offerToDependent). */
  toDependent?(root: RootTask<P, R>, dependent: DependentRequest): Record<string, unknown>;
}

/** The same data item: a dependent takes the root's attachments unless its definition names others. */
const DATA_ITEM_KEYS = ['attachment', 'attachments', 'attachment_type'] as const;

/** The params schema's view of stored params; a task imported with params of another shape is a 400. */
function parsed<T>(schema: ZodType<T, ZodTypeDef, unknown>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw invalidParameters(result.error, field);
  return result.data;
}

/** Builds the registry's untyped view of a typed task type: each method parses, then calls the typed one. */
export function defineTaskType<P, R extends Record<string, unknown>>(spec: TaskTypeSpec<P, R>): TaskTypeDefinition {
  // The last params parsed, by identity: a creation checks its params and then derives the task's
  // fields from the very same object, so the parse (zod, the bulk of a create) runs once, not twice.
  // Identity is safe: creation params are not changed after the split, stored ones are frozen. One
  // entry only, so nothing per task is kept.
  let last: { given: unknown; params: P } | undefined;
  const params = (task: Pick<Task, 'params'>): P => {
    if (last?.given === task.params) return last.params;
    const result = parsed(spec.params, task.params, 'params');
    last = { given: task.params, params: result };
    return result;
  };
  // A creation's params come from createSchema. When it checked them with spec.params' own field
  // schemas (createBodySchema), they are what spec.params answers: parsing them again made a copy of
  // every field (a text collection's whole field tree), which was a third of a creation's time.
  const createChecksParams = paramsSchemaOf(spec.createSchema) === spec.params;
  // Checked by that schema, so they are P (the compiler cannot see the link between the two schemas).
  const creationParams = (given: Record<string, unknown>): P =>
    createChecksParams ? (given as P) : params({ params: given });
  const keys = new Set(Object.keys(innerObject(spec.createSchema)?.shape ?? {}));
  return {
    type: spec.type,
    summary: spec.summary,
    schemaName: spec.schemaName,
    createSchema: spec.createSchema,
    responseSchema: spec.response,
    ...(spec.paramDefaults && { paramDefaults: spec.paramDefaults }),
    ...(spec.defaultInstruction !== undefined && { defaultInstruction: spec.defaultInstruction }),
    ...(spec.resultsByFile && { resultsByFile: true }),
    ...(spec.chat && { chat: true as const }),
    checkCreate: (given, context) => {
      const check = spec.checkCreate;
      return check ? collectIssues((report) => check(creationParams(given), context, report)) : [];
    },
    taskFields: (given) => spec.taskFields?.(creationParams(given)) ?? {},
    judgeResponse: (task, given) => judge(spec, params(task), given),
    checkResponse: (task, given) => {
      const verdict = judge(spec, params(task), given);
      if (verdict.kind === 'fits') return [];
      if (verdict.kind === 'unfit') return verdict.issues;
      return verdict.error.issues.map((issue) => ({ path: ['response', ...issue.path], message: issue.message }));
    },
    synthesize: (task, rng) => spec.synthesize(params(task), rng, task.task_id),
    takes: (key) => keys.has(key),
    offerToDependent: (root, dependent) => {
      const dataItem = Object.fromEntries(
        DATA_ITEM_KEYS.filter((key) => root.params[key] !== undefined).map((key) => [key, root.params[key]]),
      );
      if (!spec.toDependent) return dataItem;
      const response = root.response === undefined ? undefined : parsed(spec.response, root.response, 'response');
      return { ...dataItem, ...spec.toDependent({ taskId: root.task_id, params: params(root), response }, dependent) };
    },
  };
}

function judge<P, R extends Record<string, unknown>>(
  spec: TaskTypeSpec<P, R>,
  params: P,
  given: unknown,
): ResponseVerdict {
  const result = spec.response.safeParse(given);
  if (!result.success) return { kind: 'malformed', error: result.error };
  const issues = collectIssues((report) => spec.checkResponse(params, result.data, report));
  return issues.length > 0 ? { kind: 'unfit', issues } : { kind: 'fits', response: result.data };
}
