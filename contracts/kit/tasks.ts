import { randomBytes } from 'node:crypto';
import type { Task, TaskCommon, TaskList, TaskOfType } from './answers.js';
import { eventually } from './eventually.js';
import {
  ContractFailure,
  expectEqual,
  expectHasKey,
  expectMatch,
  expectOneOf,
  expectStatus,
  expectTrue,
  expectType,
  fail,
  setupStep,
} from './expect.js';
import type { Client, Query, RequestOptions } from './target.js';

/** Task fixtures and the Task table's shape, shared by every suite file. */

export const TASK_ID = /^[0-9a-f]{24}$/;
/** ISO 8601 UTC with milliseconds and Z, the service's timestamp format. */
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The real service's wording for an unknown (or foreign) task id. */
export const TASK_NOT_FOUND = 'Task with that ID not found.';
const STATUSES = ['pending', 'completed', 'canceled', 'error'] as const;

/** Leaf labels of `imageTaskBody`: "vehicle" has subchoices, so it is navigation only, never a label. */
export const LEAF_LABELS: Record<string, string[]> = { box: ['car', 'truck', 'bus'], polygon: ['pedestrian'] };

export const randomTaskId = (): string => randomBytes(12).toString('hex');

/** A valid imageannotation body with a fresh attachment URL; overrides replace top-level keys. */
export function imageTaskBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    instruction: 'Box every vehicle and outline each pedestrian.',
    attachment: `https://example.com/contracts/${randomBytes(6).toString('hex')}.jpg`,
    geometries: {
      box: {
        objects_to_annotate: ['car', { choice: 'vehicle', subchoices: ['truck', 'bus'] }],
        min_height: 5,
        min_width: 5,
      },
      polygon: { objects_to_annotate: ['pedestrian'], min_vertices: 3, max_vertices: 12 },
    },
    ...overrides,
  };
}

export function createTaskRequest(client: Client, overrides: Record<string, unknown> = {}, options?: RequestOptions) {
  return client.post('/v1/task/imageannotation', imageTaskBody(overrides), options);
}

/**
 * A setup step: a new imageannotation task. It checks only what callers need (200 and a task_id);
 * the Task table's shape is the subject of its own contracts, so one missing field is reported
 * once, there, and not as a failure of every contract that needs a task.
 */
export async function createTask(client: Client, overrides: Record<string, unknown> = {}): Promise<Task> {
  return setupStep('create an imageannotation task', async () => {
    const res = await createTaskRequest(client, overrides);
    expectStatus(res, 200);
    expectMatch(res.body.task_id, TASK_ID, `${res.request} task_id`);
    return res.body;
  });
}

/** Reads a task: 200 and a JSON object (contracts check the fields they are about). */
export async function getTask(client: Client, taskId: string): Promise<Task> {
  const res = await client.get(`/v1/task/${taskId}`);
  expectStatus(res, 200);
  expectType(res.body, 'object', res.request);
  return res.body;
}

/** Lists tasks: 200 and a docs array (the list's shape is the subject of its own contract). */
export async function listTasks(client: Client, query: Query): Promise<TaskList> {
  const res = await client.get('/v1/tasks', { query });
  expectStatus(res, 200);
  expectType(res.body.docs, 'array', `${res.request} docs`);
  return res.body;
}

/** Runs every check and reports all that failed in one failure (a shape with three bad fields says three). */
function checkAll(checks: readonly (() => void)[]): void {
  const messages: string[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (err) {
      if (!(err instanceof ContractFailure)) throw err;
      messages.push(err.message);
    }
  }
  if (messages.length > 0) fail(messages.join('; '));
}

/** A list's docs as full task documents (the default, without limited_response): each must carry its `type`. */
export function fullDocsOf(list: TaskList, what: string): Task[] {
  return list.docs.map((doc, i) => {
    if (!('type' in doc)) fail(`${what} docs[${i}]: expected a full task document, got ${JSON.stringify(doc)}`);
    return doc;
  });
}

export const idsOf = (list: { docs: { task_id: string }[] }): string[] => list.docs.map((doc) => doc.task_id);

export function isTestKey(key: string): boolean {
  return /^test_/.test(key) || /\|test$/.test(key);
}

/** `task` is a task of `type` (its `type` field says so): its params and response read as that type's. */
export function expectTaskType<Type extends string>(
  task: unknown,
  type: Type,
  what: string,
): asserts task is TaskOfType<Type> {
  expectType(task, 'object', what);
  expectEqual(task.type, type, `${what} type`);
}

/** The fields of the interface's Task table that every task carries. */
export function expectTaskShape(task: unknown, what: string): asserts task is TaskCommon {
  expectType(task, 'object', what);
  checkAll([
    () => expectMatch(task.task_id, TASK_ID, `${what} task_id`),
    () => expectType(task.type, 'string', `${what} type`),
    () => expectOneOf(task.status, STATUSES, `${what} status`),
    () => expectType(task.params, 'object', `${what} params`),
    () => expectMatch(task.created_at, ISO_MS, `${what} created_at`),
    () => expectMatch(task.updated_at, ISO_MS, `${what} updated_at`),
    () =>
      expectTrue(
        !(String(task.updated_at) < String(task.created_at)),
        `${what}: updated_at ${task.updated_at} is before created_at ${task.created_at}`,
      ),
    () => {
      if (task.completed_at !== undefined) expectMatch(task.completed_at, ISO_MS, `${what} completed_at`);
    },
    // Current documents say callback_succeeded, older ones callback_completed: both must be there and agree.
    () => expectType(task.callback_succeeded, 'boolean', `${what} callback_succeeded`),
    () =>
      expectEqual(
        task.callback_completed,
        task.callback_succeeded,
        `${what} callback_completed (must equal callback_succeeded)`,
      ),
    () => expectType(task.metadata, 'object', `${what} metadata`),
    () => expectType(task.audits, 'array', `${what} audits`),
    () => {
      expectHasKey(task, 'project_param_version', what);
      expectTrue(
        task.project_param_version === null || Number.isInteger(task.project_param_version),
        `${what}: project_param_version must be null or an integer`,
      );
    },
    () => expectType(task.is_test, 'boolean', `${what} is_test`),
    () => {
      if (task.tags !== undefined) expectType(task.tags, 'array', `${what} tags`);
    },
    () => {
      if (task.unique_id !== undefined) expectType(task.unique_id, 'string', `${what} unique_id`);
    },
  ]);
}

/** `{docs, total, limit, offset, has_more, next_token}`: the Python client crashes without offset. */
export function expectListShape(list: unknown, what: string): void {
  expectType(list, 'object', what);
  expectType(list.docs, 'array', `${what} docs`);
  for (const key of ['total', 'limit', 'offset']) {
    const count = list[key];
    expectTrue(
      typeof count === 'number' && Number.isInteger(count) && count >= 0,
      `${what}: ${key} must be a non-negative integer, got ${JSON.stringify(list[key])}`,
    );
  }
  expectType(list.has_more, 'boolean', `${what} has_more`);
  expectTrue(
    list.next_token === undefined || list.next_token === null || typeof list.next_token === 'string',
    `${what}: next_token must be a string, null or absent`,
  );
  expectTrue(
    !list.has_more || typeof list.next_token === 'string',
    `${what}: has_more is true but next_token is ${JSON.stringify(list.next_token)}`,
  );
}

/**
 * The ids a list answers, polled up to --wait until they are `expected`: a real service's lists
 * may lag behind its writes.
 */
export function expectListed(client: Client, query: Query, expected: readonly string[], what: string): Promise<void> {
  return eventually(async () => expectEqual(idsOf(await listTasks(client, query)), expected, what));
}
